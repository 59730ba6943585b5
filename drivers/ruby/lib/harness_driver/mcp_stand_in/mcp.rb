# frozen_string_literal: true

# Stand-in for the `mcp` gem (>= 0.6), which has no Debian package. The Ruby Agent SDK requires it
# at load time (sdk_mcp_server.rb) but uses its classes only when an SDK-hosted (in-process) MCP
# server is created. The driver puts this folder on the load path only when `require 'mcp'`
# fails, and then reports `mcp_servers` as unsupported (exit 4) instead of running a server on it.
module MCP
  STAND_IN = true
end
