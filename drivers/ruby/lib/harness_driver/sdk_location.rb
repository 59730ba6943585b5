# frozen_string_literal: true

# Finds and loads the Ruby Agent SDK (`claude-agent-sdk` gem, module `ClaudeAgentSDK`).
#
# Where it looks, in this order (docs/sdk-ruby.md):
#   1. a `claude_agent_sdk` that `require` already finds (a Bundler or `gem install` setup, or a
#      RUBYLIB the caller set);
#   2. the `lib/` folder named by $CLAUDE_HARNESS_RUBY_SDK_PATH when that is set, else
#      `<source root>/../shared/peers/ruby-sdk/lib` (the offline copy beside a checkout).
# The Ruby 3.1 prelude (prelude.rb) is loaded first, and a stand-in for the `mcp` gem when that is
# missing (mcp_stand_in/mcp.rb).
# How it fails: `SdkMissing` says what was tried and how to get the SDK; nothing is installed.
# What it costs: loading the SDK (about 0.3 s).
module HarnessDriver
  module SdkLocation
    SDK_PATH_VARIABLE = 'CLAUDE_HARNESS_RUBY_SDK_PATH'
    SDK_GEM = 'claude-agent-sdk'

    # drivers/ruby/lib/harness_driver/sdk_location.rb -> the source root is four folders up.
    SOURCE_ROOT = File.expand_path('../../../..', __dir__)

    class SdkMissing < StandardError; end

    module_function

    def sdk_folder
      override = ENV.fetch(SDK_PATH_VARIABLE, '')
      return override unless override.empty?

      File.join(File.dirname(SOURCE_ROOT), 'shared', 'peers', 'ruby-sdk', 'lib')
    end

    def load_mcp
      require 'mcp'
    rescue LoadError
      $LOAD_PATH.push(File.join(__dir__, 'mcp_stand_in'))
      require 'mcp'
    end

    # Returns the loaded ClaudeAgentSDK module, or raises SdkMissing.
    def load_sdk
      require_relative 'prelude'
      load_mcp
      begin
        require 'claude_agent_sdk'
        return ::ClaudeAgentSDK
      rescue LoadError => e
        raise SdkMissing, "claude_agent_sdk is installed but cannot be loaded: #{e.message}" unless e.path.to_s.end_with?('claude_agent_sdk')
      end
      folder = sdk_folder
      unless File.file?(File.join(folder, 'claude_agent_sdk.rb'))
        how = if ENV.fetch(SDK_PATH_VARIABLE, '').empty?
                "#{folder} does not exist (set $#{SDK_PATH_VARIABLE} to a folder holding it)"
              else
                "$#{SDK_PATH_VARIABLE} names #{folder}"
              end
        raise SdkMissing, "the Ruby Agent SDK is not loadable: `require 'claude_agent_sdk'` fails and #{how}, " \
                          "which has no claude_agent_sdk.rb. Install it with `gem install #{SDK_GEM}` (or Bundler) " \
                          "or point $#{SDK_PATH_VARIABLE} at the gem's lib/ folder"
      end
      $LOAD_PATH.unshift(folder)
      begin
        require 'claude_agent_sdk'
      rescue LoadError => e
        raise SdkMissing, "claude_agent_sdk in #{folder} cannot be loaded: #{e.message} " \
                          '(Debian: apt-get install ruby ruby-async)'
      end
      ::ClaudeAgentSDK
    end

    def describe(sdk)
      where = $LOADED_FEATURES.find { |f| f.end_with?('/claude_agent_sdk.rb') }
      "#{SDK_GEM} #{sdk::VERSION} from #{where ? File.dirname(where) : '?'} (ruby #{RUBY_VERSION})"
    end
  end
end
