#!/usr/bin/env ruby
# frozen_string_literal: true

# Conformance driver for the Ruby Agent SDK (claude-agent-sdk gem, ClaudeAgentSDK), docs/drivers.md.
#
# Reads a driver spec, makes the SDK do what it says against fake-claude and prints what the SDK
# surfaced as NDJSON observations on stdout. The SDK's own failures are observations: the driver
# exits 0 whenever it could carry the spec out.
#
# Ruby 3.1 (Debian 12): the gem asks for Ruby >= 3.2 and async 2.x. lib/harness_driver/prelude.rb
# provides the three 3.2 behaviours it needs (`Set` loaded, `Thread::Queue#pop(timeout:)`,
# `Fiber[]` storage) before the SDK loads; with Debian's ruby-async 1.30 it then runs unchanged.
# The `mcp` gem (Debian has none) is replaced by a stand-in when missing, so SDK-hosted MCP
# servers are unsupported (exit 4).

$LOAD_PATH.unshift(File.join(__dir__, 'lib'))

require 'json'
require 'harness_driver/observations'
require 'harness_driver/sdk_location'
require 'harness_driver/spec'

USAGE = <<~TEXT
  usage: driver.rb [--spec FILE] [--scenario FILE] [--fake-claude PATH]
         driver.rb --sdk-info

  Runs one driver spec (docs/drivers.md) with the Ruby Agent SDK (claude-agent-sdk gem) against
  fake-claude and writes what the SDK surfaced as NDJSON observations to stdout.

    --spec FILE         driver spec (JSON). Default: $CLAUDE_HARNESS_DRIVER_SPEC, else the "driver"
                        member of the scenario's header line.
    --scenario FILE     scenario for fake-claude, handed over in FAKE_CLAUDE_SCENARIO.
                        Default: $FAKE_CLAUDE_SCENARIO.
    --fake-claude PATH  the executable the SDK starts instead of claude (its cli_path option).
                        Default: $FAKE_CLAUDE.
    --sdk-info          print which SDK would be used and exit (0 found, 2 not found).
    -h, --help          this text.

  The SDK is `require 'claude_agent_sdk'` when that works, else the gem's lib/ folder in
  $CLAUDE_HARNESS_RUBY_SDK_PATH, else <source root>/../shared/peers/ruby-sdk/lib.
  FAKE_CLAUDE_REPORT and the rest of the environment are passed on to the CLI.

  Exit codes: 0 spec carried out (SDK errors are observations), 2 usage, bad spec or no SDK,
  3 the session did not end within timeout_ms (or the driver broke), 4 the spec needs a feature
  this driver lacks (an "unsupported" observation names it).
TEXT

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BROKEN = 3
EXIT_UNSUPPORTED = 4
NAME = 'driver.rb'

include HarnessDriver # rubocop:disable Style/MixinUsage

def parse_args(argv)
  args = {}
  i = 0
  while i < argv.size
    arg = argv[i]
    if %w[--help -h --sdk-info].include?(arg)
      args[arg == '--sdk-info' ? 'sdk-info' : 'help'] = true
      i += 1
      next
    end
    name, eq, value = arg.partition('=')
    raise SpecError, "unknown argument '#{arg}' (see --help)" unless %w[--spec --scenario --fake-claude].include?(name)

    if eq.empty?
      raise SpecError, "#{name} needs a value" if i + 1 >= argv.size

      i += 1
      value = argv[i]
    end
    args[name.delete_prefix('--')] = value
    i += 1
  end
  args
end

def read_text(path, what)
  File.read(path, encoding: 'UTF-8')
rescue SystemCallError => e
  raise SpecError, "#{path}: cannot read #{what}: #{e.message}"
end

def spec_from_file(path)
  JSON.parse(read_text(path, 'driver spec'))
rescue JSON::ParserError => e
  raise SpecError, "#{path}: driver spec is not valid JSON: #{e.message.lines.first.strip}"
end

def spec_from_scenario(path)
  read_text(path, 'scenario').split("\n").each_with_index do |line, index|
    stripped = line.strip
    next if stripped.empty? || stripped.start_with?('#')

    begin
      header = JSON.parse(stripped)
    rescue JSON::ParserError => e
      raise SpecError, "#{path}:#{index + 1}: scenario header is not valid JSON: #{e.message.lines.first.strip}"
    end
    unless header.is_a?(Hash) && header.key?('driver')
      raise SpecError, "#{path}:#{index + 1}: scenario header has no \"driver\" member and no --spec was given"
    end

    return header['driver']
  end
  raise SpecError, "#{path}: scenario is empty"
end

def setting(args, flag, variable)
  value = args[flag] || ENV.fetch(variable, '')
  value.empty? ? nil : value
end

# Kills the driver's own children (the CLI), so a timed-out run leaves nothing behind. They are
# found by parent pid: the driver's process group may be the grader's. The SDK may be starting a
# child while the watchdog scans (its `-v` probe, then the CLI), so it scans until a pass finds
# none (at most 20 passes, 10 ms apart).
def kill_children
  20.times do
    found = false
    Dir.children('/proc').grep(/\A\d+\z/).each do |pid|
      stat = File.read("/proc/#{pid}/stat")
      # Field 4 (ppid) follows the parenthesised command name, which may hold spaces.
      fields = stat[(stat.rindex(')') + 2)..].split
      next unless fields[1] == Process.pid.to_s

      Process.kill('KILL', pid.to_i)
      found = true
    rescue SystemCallError
      next
    end
    break unless found

    sleep 0.01
  end
end

def arm_watchdog(timeout_ms)
  Thread.new do
    sleep(timeout_ms / 1000.0)
    timed_out = { 'message' => "driver: the session did not end within #{timeout_ms} ms", 'name' => 'Timeout' }
    if Observations.finish(['error', timed_out], ['end', { 'ok' => false, 'timeout' => true }])
      begin
        kill_children
      rescue StandardError => e
        warn "#{NAME}: could not end the CLI after the timeout: #{e.class}: #{e.message}"
      ensure
        exit!(EXIT_BROKEN)
      end
    end
  end
end

def run(args)
  fake_claude = setting(args, 'fake-claude', 'FAKE_CLAUDE')
  raise SpecError, 'no fake-claude path: give --fake-claude PATH or set FAKE_CLAUDE' unless fake_claude

  scenario = setting(args, 'scenario', 'FAKE_CLAUDE_SCENARIO')
  spec_path = setting(args, 'spec', 'CLAUDE_HARNESS_DRIVER_SPEC')
  raw = if spec_path
          spec_from_file(spec_path)
        elsif scenario
          spec_from_scenario(scenario)
        else
          raise SpecError, 'no driver spec: give --spec FILE, set CLAUDE_HARNESS_DRIVER_SPEC, or give --scenario'
        end
  spec = Spec.carry_out(raw)
  begin
    sdk = SdkLocation.load_sdk
  rescue SdkLocation::SdkMissing => e
    raise SpecError, e.message
  end
  require 'harness_driver/session'
  # The SDK passes the driver's environment on to the CLI; fake-claude reads its scenario there.
  ENV['FAKE_CLAUDE_SCENARIO'] = scenario if scenario

  Observations.observe('start', 'driver' => 'ruby', 'sdk' => SdkLocation::SDK_GEM, 'sdk_version' => sdk::VERSION,
                                'ruby' => RUBY_VERSION)
  options = Session.build_options(sdk, spec, fake_claude)
  watchdog = arm_watchdog(spec.timeout_ms)
  ok = Session.new(sdk, spec, options).run
  if Observations.finish(['end', { 'ok' => ok }])
    watchdog.kill
    return EXIT_OK
  end
  # The watchdog fired first and the session ended of its kill: the watchdog exits 3 once it
  # has ended every child (never kill it halfway through that).
  watchdog.join(10)
  EXIT_BROKEN
end

def sdk_info
  sdk = SdkLocation.load_sdk
  puts SdkLocation.describe(sdk)
  EXIT_OK
rescue SdkLocation::SdkMissing => e
  warn "#{NAME}: #{e.message}"
  EXIT_USAGE
end

def main
  args = parse_args(ARGV)
  return (puts USAGE) || EXIT_OK if args['help']
  return sdk_info if args['sdk-info']

  run(args)
rescue UnsupportedFeature => e
  Observations.observe('unsupported', 'feature' => e.message)
  warn "#{NAME}: unsupported by the Ruby driver: #{e.message}"
  EXIT_UNSUPPORTED
rescue SpecError => e
  warn "#{NAME}: #{e.message}"
  EXIT_USAGE
rescue StandardError, ScriptError => e # a driver bug: say so, as the protocol's "driver broke"
  warn "#{NAME}: internal error: #{e.class}: #{e.message}\n#{e.backtrace&.join("\n")}"
  EXIT_BROKEN
end

$stdout.sync = false
code = main
$stdout.flush
exit!(code)
