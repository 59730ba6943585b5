# frozen_string_literal: true

# The Ruby SDK's typed messages as JSON, laid out under the wire's member names (docs/drivers.md
# section 3).
#
# What it is: the SDK hands its user objects (`AssistantMessage` with `TextBlock`s,
# `ResultMessage`, `InitMessage`, ...), not the frames the CLI wrote. Conformance cases select
# messages with SDK-neutral patterns in the wire's layout, so each typed field is put back where
# the wire carries it: `AssistantMessage#content` under `message.content`, `#message_id` as
# `message.id`, `ResultMessage#model_usage` as `modelUsage`, a `TextBlock` as
# `{"type":"text","text":...}`. Only what the typed object holds is reported (its instance
# variables): a member the SDK dropped is absent here too. System messages are reported as their
# `data`, the whole frame, which their user can read. `sdk_class` names the class the user got.
# How it fails: a class this module does not know is reported as its instance variables with
# `sdk_class`, never dropped.
# What it costs: one walk over the message.
module HarnessDriver
  module Messages
    # Typed content block -> its wire `type`; the block's fields keep their names on the wire.
    BLOCK_TYPES = {
      'TextBlock' => 'text',
      'ThinkingBlock' => 'thinking',
      'ToolUseBlock' => 'tool_use',
      'ToolResultBlock' => 'tool_result',
      'ServerToolUseBlock' => 'server_tool_use',
      'ServerToolResultBlock' => 'advisor_tool_result'
    }.freeze

    # Typed top-level messages without a wire `type` member of their own.
    MESSAGE_TYPES = {
      'StreamEvent' => 'stream_event',
      'ToolProgressMessage' => 'tool_progress',
      'AuthStatusMessage' => 'auth_status',
      'ToolUseSummaryMessage' => 'tool_use_summary',
      'PromptSuggestionMessage' => 'prompt_suggestion'
    }.freeze

    # ResultMessage field -> wire member, where they differ.
    RESULT_NAMES = { 'model_usage' => 'modelUsage' }.freeze

    module_function

    def short_name(object)
      object.class.name.to_s.split('::').last
    end

    # An SDK object's instance variables (nil ones left out), nested objects converted too.
    def fields(object)
      object.instance_variables.each_with_object({}) do |ivar, out|
        value = object.instance_variable_get(ivar)
        out[ivar.to_s.delete_prefix('@')] = value(value) unless value.nil?
      end
    end

    def value(value)
      case value
      when Hash then value.to_h { |k, v| [k.to_s, value(v)] }
      when Array then value.map { |v| value(v) }
      when String, Integer, Float, true, false, nil then value
      when Symbol then value.to_s
      else
        sdk_object?(value) ? fields(value) : value.inspect
      end
    end

    def sdk_object?(value)
      value.class.name.to_s.start_with?('ClaudeAgentSDK::')
    end

    def block(block)
      name = short_name(block)
      return value(block.data).merge('sdk_class' => name) if name == 'UnknownBlock' && block.data.is_a?(Hash)
      return value(block) unless BLOCK_TYPES.key?(name)

      { 'type' => BLOCK_TYPES[name] }.merge(fields(block))
    end

    def content(content)
      content.is_a?(Array) ? content.map { |b| block(b) } : value(content)
    end

    def assistant(m)
      inner = { 'id' => m.message_id, 'role' => 'assistant', 'model' => m.model, 'content' => content(m.content),
                'stop_reason' => m.stop_reason, 'usage' => value(m.usage) }.compact
      outer = { 'error' => m.error, 'session_id' => m.session_id, 'uuid' => m.uuid }.compact
      { 'type' => 'assistant', 'message' => inner, 'parent_tool_use_id' => m.parent_tool_use_id }.merge(outer)
    end

    def user(m)
      outer = { 'uuid' => m.uuid, 'tool_use_result' => value(m.tool_use_result) }.compact
      { 'type' => 'user', 'message' => { 'role' => 'user', 'content' => content(m.content) },
        'parent_tool_use_id' => m.parent_tool_use_id }.merge(outer)
    end

    def result(m)
      { 'type' => 'result' }.merge(fields(m).transform_keys { |k| RESULT_NAMES.fetch(k, k) })
    end

    def rate_limit(m)
      { 'type' => 'rate_limit_event', 'rate_limit_info' => value(m.rate_limit_info.raw), 'uuid' => m.uuid,
        'session_id' => m.session_id }.compact
    end

    # The observation's `message` member for one message the SDK yielded.
    def to_json_object(sdk, message)
      out = case message
            when sdk::SystemMessage
              value(message.data.is_a?(Hash) ? message.data : {}).merge('type' => 'system',
                                                                         'subtype' => message.subtype)
            when sdk::AssistantMessage then assistant(message)
            when sdk::UserMessage then user(message)
            when sdk::ResultMessage then result(message)
            when sdk::RateLimitEvent then rate_limit(message)
            else
              type = MESSAGE_TYPES[short_name(message)]
              sdk_object?(message) ? { 'type' => type }.compact.merge(fields(message)) : { 'value' => message.inspect }
            end
      out.merge('sdk_class' => short_name(message))
    end
  end
end
