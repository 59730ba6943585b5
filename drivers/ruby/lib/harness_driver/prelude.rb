# frozen_string_literal: true

# The Ruby 3.2 behaviours the Ruby Agent SDK (claude-agent-sdk 0.30.0) needs, provided on
# Debian 12's Ruby 3.1 so that the gem loads and drives a CLI there
# (docs/sdk-ruby.md). Each piece is a no-op on a Ruby that already has it.
#
# 1. `Set` is not autoloaded on 3.1, and the SDK calls `to_set` while it loads (types.rb).
# 2. `Thread::Queue#pop(timeout:)` is 3.2+. On 3.1 the keyword hash is taken as the positional
#    `non_block` argument, so `pop(timeout: 0.1)` raises `ThreadError: queue empty` at once
#    instead of waiting; the SDK waits that way for control replies from callback threads
#    (query.rb, ThreadWaiter) and for its close hand-off (marshal_close_to_reactor).
# 3. `Fiber[]` / `Fiber[]=` storage is 3.2+; only the SDK-hosted MCP server path uses it. Here it
#    is fiber-local storage (3.2's is inherited by child fibers; that path does not rely on it).
#
# How it fails: it does not; it only adds methods. What it costs: the timed pop polls every
# 2 ms while it waits (3.1 has no timed wait on a Queue).

require 'set'

unless Thread::Queue.instance_method(:pop).parameters.any? { |_kind, name| name == :timeout }
  # Thread::Queue and SizedQueue get the 3.2 signature; the untimed forms are unchanged.
  module HarnessQueueTimedPop
    POLL_SECONDS = 0.002

    def pop(non_block = false, timeout: nil)
      return super(non_block) if non_block || timeout.nil?

      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      loop do
        begin
          return super(true)
        rescue ThreadError
          return nil if closed? && empty?
          return nil if Process.clock_gettime(Process::CLOCK_MONOTONIC) >= deadline

          sleep POLL_SECONDS
        end
      end
    end
  end
  Thread::Queue.prepend(HarnessQueueTimedPop)
end

unless Fiber.respond_to?(:[])
  class Fiber
    def self.[](key)
      Thread.current[key]
    end

    def self.[]=(key, value)
      Thread.current[key] = value
    end
  end
end
