# frozen_string_literal: true

require_relative 'spec'

# When a turn, a control call or the end of input happens (docs/drivers.md, "Trigger").
#
# `TriggerBoard#arm` is called for every trigger when the session is created, so message triggers
# count the messages the SDK yields from then on. `Armed#wait` returns true when the trigger fired
# and false when the run ended first (`abandon_all`; a trigger already due still goes ahead).
# Messages arrive on the SDK's callback threads while waiters are reactor fibers, so the board is
# a Mutex + ConditionVariable (both scheduler-aware for fibers on Ruby 3.1).
# How it fails: it does not; an unmatched pattern simply never fires.
# What it costs: one pattern match per armed message trigger per message.
module HarnessDriver
  class TriggerBoard
    attr_reader :lock, :changed

    def initialize
      @lock = Mutex.new
      @changed = ConditionVariable.new
      @waiting = []
      @abandoned = false
      @results = 0
    end

    def self.now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    def arm(trigger)
      armed = Armed.new(self, trigger)
      @lock.synchronize { @waiting << armed if trigger.kind == 'message' }
      armed
    end

    def on_message(message)
      @lock.synchronize do
        @waiting.reject! { |armed| armed.offer(message) }
        @results += 1 if message['type'] == 'result'
        @changed.broadcast
      end
    end

    # Releases every waiter whose trigger is not due: the run is over.
    def abandon_all
      @lock.synchronize do
        @abandoned = true
        @changed.broadcast
      end
    end

    def abandoned?
      @abandoned
    end

    # Returns once n `result` messages were yielded (true), or the run ended first (false).
    def wait_for_results(count)
      @lock.synchronize do
        until @results >= count
          return false if @abandoned

          @changed.wait(@lock)
        end
        true
      end
    end
  end

  # One armed trigger.
  class Armed
    def initialize(board, trigger)
      @board = board
      @trigger = trigger
      @remaining = trigger.nth
      @fire_at = %w[start delay].include?(trigger.kind) ? TriggerBoard.now + (trigger.delay_ms / 1000.0) : nil
    end

    # Counts a message (board lock held); true once the trigger matched.
    def offer(message)
      return false unless Spec.json_matches(@trigger.pattern, message)

      @remaining -= 1
      return false if @remaining.positive?

      @fire_at = TriggerBoard.now + (@trigger.delay_ms / 1000.0)
      true
    end

    def due?
      !@fire_at.nil? && @fire_at <= TriggerBoard.now
    end

    def wait
      @board.lock.synchronize do
        loop do
          return true if due?
          return false if @board.abandoned?

          if @fire_at
            @board.changed.wait(@board.lock, @fire_at - TriggerBoard.now)
          else
            @board.changed.wait(@board.lock)
          end
        end
      end
    end
  end
end
