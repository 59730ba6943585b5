# frozen_string_literal: true

require 'async'
require_relative 'messages'
require_relative 'observations'
require_relative 'spec'
require_relative 'triggers'

# Runs one driver spec with the Ruby Agent SDK and reports what the SDK surfaced.
#
# What it is: the spec mapped onto the SDK's API. A `prompt` with neither control calls nor a
# permission callback is the SDK's one-shot `ClaudeAgentSDK.query(prompt:, options:)` (that
# query() refuses a String prompt together with `can_use_tool`). Everything else is a
# `ClaudeAgentSDK::Client`, inside the `Async` reactor, connected with an input stream (an
# Enumerator run by the SDK on the reactor) that yields each turn when its trigger fires; a
# `prompt` there is a one-turn stream held open until the first result (a one-shot query's
# lifetime). Control calls are reactor tasks calling the client's methods. Callbacks
# (`can_use_tool`, hooks, stderr) look their answer up in the spec and report each invocation;
# the SDK runs them, and the message block, on plain threads (its default `callback_scheduling`).
# How it fails: whatever the SDK raises while messages are consumed is an `error` observation and
# makes `run` return false; it raises only for driver bugs.
# What it costs: one CLI process; a JSON encode per observation.
module HarnessDriver
  class Session
    SETTLE_SECONDS = 2.0 # how long control calls still in flight may take to report at the end
    # A `close` in flight gets longer: Client#disconnect waits up to 5 s for the CLI to exit after
    # stdin EOF, then 2 s more after SIGTERM (subprocess_cli_transport.rb, teardown_process).
    CLOSE_SETTLE_SECONDS = 10.0

    # Spec control call -> the ClaudeAgentSDK::Client method that makes it; `a` is the call's args.
    CONTROL = {
      'interrupt' => ->(c, _a) { c.interrupt },
      'set_model' => ->(c, a) { c.set_model(a['model']) },
      'set_permission_mode' => ->(c, a) { c.set_permission_mode(a['mode']) },
      'mcp_status' => ->(c, _a) { c.get_mcp_status },
      'get_context_usage' => ->(c, _a) { c.get_context_usage },
      'rewind_files' => ->(c, a) { c.rewind_files(a['user_message_id']) },
      'stop_task' => ->(c, a) { c.stop_task(a['task_id']) },
      'reconnect_mcp_server' => ->(c, a) { c.reconnect_mcp_server(a['server_name']) },
      'toggle_mcp_server' => ->(c, a) { c.toggle_mcp_server(a['server_name'], a['enabled']) },
      'initialization_result' => ->(c, _a) { c.get_server_info },
      'supported_commands' => ->(c, _a) { c.get_server_info&.[](:commands) },
      'supported_models' => ->(c, _a) { c.get_server_info&.[](:models) },
      'close' => ->(c, _a) { c.disconnect }
    }.freeze

    def self.error_members(err)
      members = { 'message' => err.message.to_s.empty? ? err.class.name : err.message,
                  'name' => err.class.name.to_s.split('::').last }
      members['exit_code'] = err.exit_code if err.respond_to?(:exit_code) && !err.exit_code.nil?
      members['data'] = Messages.value(err.data) if err.respond_to?(:data) && err.data.is_a?(Hash)
      members
    end

    def self.observe(obs, **members)
      Observations.observe(obs, **members)
    end

    def self.permission_callback(sdk, rules)
      lambda do |tool_name, tool_input, context|
        input = Messages.value(tool_input)
        rule = rules.find do |r|
          (!r.key?('tool') || r['tool'] == tool_name) && (!r.key?('input') || Spec.json_matches(r['input'], input))
        end
        seen = { 'tool' => tool_name, 'input' => input, 'tool_use_id' => context.tool_use_id,
                 'suggestions' => Array(context.suggestions).map { |s| Messages.value(s.to_h) } }
        sleep(rule['delay_ms'] / 1000.0) if rule&.fetch('delay_ms', 0)&.positive?
        if rule&.key?('throw')
          observe('can_use_tool', **seen, 'threw' => rule['throw'])
          raise rule['throw']
        end
        if rule.nil?
          why = "driver: no can_use_tool rule matches tool '#{tool_name}'"
          observe('can_use_tool', **seen, 'returned' => { 'behavior' => 'deny', 'message' => why })
          next sdk::PermissionResultDeny.new(message: why)
        end
        returned = { 'behavior' => rule['behavior'] }
        if rule['behavior'] == 'allow'
          updates = rule['updated_permissions']&.map { |p| sdk::PermissionUpdate.new(p) }
          returned['updatedInput'] = rule['updated_input'] if rule.key?('updated_input')
          returned['updatedPermissions'] = rule['updated_permissions'] if updates
          result = sdk::PermissionResultAllow.new(updated_input: rule['updated_input'], updated_permissions: updates)
        else
          returned['message'] = rule['message']
          returned['interrupt'] = rule['interrupt'] if rule.key?('interrupt')
          result = sdk::PermissionResultDeny.new(message: rule['message'], interrupt: rule['interrupt'] == true)
        end
        observe('can_use_tool', **seen, 'returned' => returned)
        result
      end
    end

    def self.hook_callback(hook)
      lambda do |hook_input, tool_use_id, _context|
        seen = { 'event' => hook['event'], 'input' => Messages.value(hook_input), 'tool_use_id' => tool_use_id }
        seen['matcher'] = hook['matcher'] if hook.key?('matcher')
        sleep(hook['delay_ms'] / 1000.0) if hook.fetch('delay_ms', 0).positive?
        if hook.key?('throw')
          observe('hook', **seen, 'threw' => hook['throw'])
          raise hook['throw']
        end
        observe('hook', **seen, 'returned' => hook['returns'])
        hook['returns'] # wire form; the SDK passes string keys through unchanged
      end
    end

    def self.build_options(sdk, spec, fake_claude)
      fields = { cli_path: fake_claude }
      spec.options.each do |key, value|
        fields[Spec::OPTION_ATTRIBUTES.fetch(key)] =
          key == 'append_system_prompt' ? { type: 'preset', preset: 'claude_code', append: value } : value
      end
      fields[:can_use_tool] = permission_callback(sdk, spec.can_use_tool) unless spec.can_use_tool.nil?
      unless spec.hooks.empty?
        fields[:hooks] = spec.hooks.each_with_object({}) do |hook, by_event|
          (by_event[hook['event']] ||= []) <<
            sdk::HookMatcher.new(matcher: hook['matcher'], hooks: [hook_callback(hook)], timeout: hook['timeout'])
        end
      end
      fields[:stderr] = ->(line) { observe('stderr', 'data' => line) } if spec.capture_stderr
      sdk::ClaudeAgentOptions.new(fields)
    end

    def initialize(sdk, spec, options)
      @sdk = sdk
      @spec = spec
      @options = options
      @board = TriggerBoard.new
    end

    # Carries the spec out; true when the SDK raised nothing.
    def run
      Async do |task|
        one_shot = !@spec.prompt.nil? && @spec.control.empty? && @spec.can_use_tool.nil?
        one_shot ? run_query : run_client(task)
      end.wait
    end

    private

    def observe(obs, **members)
      Observations.observe(obs, **members)
    end

    def on_message(message)
      as_json = Messages.to_json_object(@sdk, message)
      observe('message', 'message' => as_json)
      @board.on_message(as_json)
    end

    def run_query
      @sdk.query(prompt: @spec.prompt, options: @options) { |message| on_message(message) }
      true
    rescue StandardError => e
      observe('error', **Session.error_members(e))
      false
    end

    # The input stream: each turn when its trigger fires, then the end of input. With control
    # calls (or a prompt) the input stays open until the CLI answered every turn written: a call
    # made after the end of input would have nowhere to go.
    def input_stream(turns, armed_turns, armed_end)
      Enumerator.new do |out|
        sent = 0
        complete = turns.zip(armed_turns).all? do |turn, armed|
          next false unless armed.wait

          out << turn.frame
          sent += 1
        end
        if complete && (armed_end.nil? || armed_end.wait) && (!@spec.control.empty? || !@spec.prompt.nil?)
          @board.wait_for_results(sent)
        end
      end
    end

    def make_call(client, call, armed)
      return unless armed.wait

      begin
        result = CONTROL.fetch(call.call).call(client, call.args)
        observe('control', 'call' => call.call, 'ok' => true, 'result' => Messages.value(result))
      rescue StandardError => e
        observe('control', 'call' => call.call, 'ok' => false, 'error' => e.message.to_s.empty? ? e.class.name : e.message)
      end
    end

    def run_client(task)
      turns = @spec.turns.empty? ? [Turn.new(Spec.user_frame(@spec.prompt), Spec.trigger('start'))] : @spec.turns
      # Everything is armed at once, so message triggers count from the session's start.
      armed_turns = turns.map { |turn| @board.arm(turn.when) }
      armed_end = @spec.end_input && @board.arm(@spec.end_input)
      armed_calls = @spec.control.map { |call| [call, @board.arm(call.when)] }
      client = @sdk::Client.new(options: @options)
      begin
        client.connect(input_stream(turns, armed_turns, armed_end))
      rescue StandardError => e
        observe('error', **Session.error_members(e))
        return false
      end
      ok = consume(task, client, armed_calls)
      ok
    ensure
      begin
        client&.disconnect
      rescue StandardError => e
        observe('error', **Session.error_members(e))
      end
    end

    def consume(task, client, armed_calls)
      calls = armed_calls.map { |call, armed| task.async { make_call(client, call, armed) } }
      ok = true
      begin
        client.receive_messages { |message| on_message(message) }
      rescue StandardError => e
        ok = false
        observe('error', **Session.error_members(e))
      end
      # Calls whose trigger has not fired are not made; those in flight (or due) get a bounded
      # time to report.
      @board.abandon_all
      settle = armed_calls.any? { |call, _| call.call == 'close' } ? CLOSE_SETTLE_SECONDS : SETTLE_SECONDS
      deadline = TriggerBoard.now + settle
      calls.each do |call|
        left = deadline - TriggerBoard.now
        break if left <= 0

        task.with_timeout(left) { call.wait }
      rescue Async::TimeoutError
        break
      end
      calls.each(&:stop)
      ok
    end
  end
end
