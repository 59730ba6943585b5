"""The conformance driver for the official Python Agent SDK (docs/drivers.md), as a package.

One module per job: `sdk_location` finds the SDK, `spec` checks the driver spec, `triggers`
says when turns and control calls happen, `messages` turns the SDK's typed messages into JSON,
`observations` writes the NDJSON lines, and `session` runs the SDK. `driver.py` beside this
folder is the command line.
"""
