# frozen_string_literal: true

# The driver spec (docs/drivers.md section 2) as the Ruby driver carries it out.
#
# The harness validates a spec against the driver-spec schema before any driver starts, so this
# file does not check types again: `carry_out` reads the members into plain structs with the
# protocol's defaults (turn triggers, timeout). What it does decide is what the Ruby SDK cannot
# express: `UnsupportedFeature` (exit 4, with an `unsupported` observation naming the feature) for
# a member, option or control call it does not know or the SDK lacks.
# How it fails: `SpecError` (exit 2) only when the spec is not a JSON object.
# What it costs: a walk over the spec.
module HarnessDriver
  class SpecError < StandardError; end
  class UnsupportedFeature < StandardError; end

  Trigger = Struct.new(:kind, :pattern, :nth, :delay_ms) # kind: start | never | delay | message
  Turn = Struct.new(:frame, :when)
  ControlCall = Struct.new(:call, :args, :when)
  DriverSpec = Struct.new(:prompt, :turns, :end_input, :options, :can_use_tool, :hooks, :control,
                          :capture_stderr, :timeout_ms)

  module Spec
    DEFAULT_TIMEOUT_MS = 20_000

    MEMBERS = %w[prompt turns end_input options can_use_tool hooks mcp_servers control capture_stderr
                 timeout_ms].freeze

    # Spec option -> ClaudeAgentOptions attribute. `append_system_prompt` shares `system_prompt`
    # (a preset with `append`), see Session.build_options.
    OPTION_ATTRIBUTES = {
      'model' => :model, 'fallback_model' => :fallback_model, 'permission_mode' => :permission_mode,
      'max_turns' => :max_turns, 'max_budget_usd' => :max_budget_usd,
      'max_thinking_tokens' => :max_thinking_tokens, 'include_partial_messages' => :include_partial_messages,
      'include_hook_events' => :include_hook_events, 'allowed_tools' => :allowed_tools,
      'disallowed_tools' => :disallowed_tools, 'tools' => :tools, 'system_prompt' => :system_prompt,
      'permission_prompt_tool_name' => :permission_prompt_tool_name, 'setting_sources' => :setting_sources,
      'strict_mcp_config' => :strict_mcp_config, 'resume' => :resume, 'continue' => :continue_conversation,
      'fork_session' => :fork_session, 'session_id' => :session_id, 'add_dirs' => :add_dirs, 'cwd' => :cwd,
      'extra_args' => :extra_args, 'env' => :env, 'append_system_prompt' => :system_prompt
    }.freeze

    # Control calls `ClaudeAgentSDK::Client` has a method for (session.rb maps each onto it).
    CONTROL_CALLS = %w[interrupt set_model set_permission_mode mcp_status get_context_usage rewind_files
                       stop_task reconnect_mcp_server toggle_mcp_server initialization_result
                       supported_commands supported_models close].freeze

    module_function

    def trigger(value)
      case value
      when nil, 'start' then Trigger.new('start', nil, 1, 0)
      when 'never' then Trigger.new('never', nil, 1, 0)
      else
        delay = value.fetch('delay_ms', 0)
        if value.key?('message')
          Trigger.new('message', value['message'], value.fetch('nth', 1), delay)
        else
          Trigger.new('delay', nil, 1, delay)
        end
      end
    end

    # A user message as the SDK writes one for a String prompt, with this content.
    def user_frame(content)
      { 'type' => 'user', 'session_id' => '', 'message' => { 'role' => 'user', 'content' => content },
        'parent_tool_use_id' => nil }
    end

    # Turn n (0-based) defaults to "after the n-th result"; the first to "start".
    def turns(list)
      list.each_with_index.map do |turn, i|
        frame = turn.key?('text') ? user_frame([{ 'type' => 'text', 'text' => turn['text'] }]) : turn['message']
        default = i.zero? ? 'start' : { 'message' => { 'type' => 'result' }, 'nth' => i }
        Turn.new(frame, trigger(turn.fetch('when', default)))
      end
    end

    def control(calls)
      calls.map do |c|
        call = c['call']
        unless CONTROL_CALLS.include?(call)
          raise UnsupportedFeature, call == 'set_max_thinking_tokens' ? "control.#{call} (ClaudeAgentSDK::Client has no method for it)" : "control.#{call}"
        end
        args = c.fetch('args', {})
        if call == 'rewind_files' && args['dry_run'] == true
          raise UnsupportedFeature, 'control.rewind_files.dry_run (ClaudeAgentSDK::Client#rewind_files has no dry run)'
        end

        ControlCall.new(call, args, trigger(c['when']))
      end
    end

    def carry_out(raw)
      raise SpecError, 'driver spec: must be a JSON object' unless raw.is_a?(Hash)

      unknown = raw.keys - MEMBERS
      raise UnsupportedFeature, unknown.first unless unknown.empty?

      options = raw.fetch('options', {})
      option = options.keys.find { |k| !OPTION_ATTRIBUTES.key?(k) }
      raise UnsupportedFeature, "options.#{option}" if option
      if raw.key?('mcp_servers')
        raise UnsupportedFeature, 'mcp_servers (an SDK-hosted MCP server needs the `mcp` gem, which has no ' \
                                  'Debian package; the driver loads the SDK with a stand-in that cannot host one)'
      end

      DriverSpec.new(raw['prompt'], raw.key?('turns') ? turns(raw['turns']) : [],
                     raw.key?('end_input') ? trigger(raw['end_input']) : nil, options,
                     raw['can_use_tool'], raw.fetch('hooks', []), control(raw.fetch('control', [])),
                     raw.fetch('capture_stderr', false), raw.fetch('timeout_ms', DEFAULT_TIMEOUT_MS))
    end

    # Plain-JSON superset match: objects by every key of the pattern, arrays element-wise with
    # equal length, scalars by equality (a bool never equals a number; 1 equals 1.0).
    def json_matches(pattern, value)
      case pattern
      when Hash
        value.is_a?(Hash) && pattern.all? { |k, p| value.key?(k) && json_matches(p, value[k]) }
      when Array
        value.is_a?(Array) && value.size == pattern.size && pattern.zip(value).all? { |p, v| json_matches(p, v) }
      when true, false then pattern.equal?(value)
      when Numeric then value.is_a?(Numeric) && pattern == value
      else pattern == value
      end
    end
  end
end
