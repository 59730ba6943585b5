# frozen_string_literal: true

require 'json'

# Writes observations: one JSON object per stdout line, each with `obs` and `t_ms`.
#
# Safe to call from the reactor, the SDK's callback threads and the timeout watchdog at once (a
# mutex keeps lines whole). The run ends once, by whichever side gets there first (`finish`):
# after that nothing more is written, so a session killed by the watchdog adds no lines after its
# timeout. How it fails: a closed stdout raises, which ends the driver (exit 3).
# What it costs: one encode and one flushed write per observation.
module HarnessDriver
  module Observations
    STARTED = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    LOCK = Mutex.new
    @ended = false

    module_function

    # Plain JSON values: SDK objects that are not Hash/Array/scalars become their inspect text.
    def plain(value)
      case value
      when Hash then value.to_h { |k, v| [k.to_s, plain(v)] }
      when Array then value.map { |v| plain(v) }
      when String, Integer, Float, true, false, nil then value
      when Symbol then value.to_s
      else value.inspect
      end
    end

    def encode(obs, members)
      t_ms = ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - STARTED) * 1000).to_i
      JSON.generate({ 'obs' => obs }.merge(plain(members)).merge('t_ms' => t_ms))
    end

    def observe(obs, **members)
      line = encode(obs, members)
      LOCK.synchronize do
        next if @ended

        $stdout.write("#{line}\n")
        $stdout.flush
      end
    end

    # Writes the closing observations ([obs, members] pairs) and ends the run; false, writing
    # nothing, when the other side ended it first.
    def finish(*closing)
      LOCK.synchronize do
        return false if @ended

        @ended = true
        closing.each { |obs, members| $stdout.write("#{encode(obs, members)}\n") }
        $stdout.flush
        true
      end
    end
  end
end
