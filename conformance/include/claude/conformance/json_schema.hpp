// JsonSchema: a JSON Schema (draft-07) validator for the keywords this project's schemas use.
//
// What it is: a schema document held as JSON, and `validate`, which walks a value against it and
// returns each problem as the JSON Pointer of the offending member plus a reason ("must be a
// string", "unknown member", or the `description` of an anyOf/oneOf/not/if that failed where it
// has one). The keywords are those docs/driver-spec.schema.json uses (kKeywords in the .cpp; $ref
// only to "#/..." in the same document, `items` one schema); the ajv test over the bundled
// scenarios checks the same files with a complete validator.
//
// How it fails: the constructor throws std::invalid_argument for a schema that uses a keyword
// outside the subset or a $ref that does not resolve, so a schema never checks less than it
// says. `validate` never throws.
//
// What it costs: one walk of the value per schema branch tried (anyOf/oneOf try every branch).
#pragma once

#include <string>
#include <vector>

#include "claude/emulator/pattern.hpp"

namespace claude::conformance {

struct SchemaProblem {
  std::string pointer;  // JSON Pointer into the validated value, "" for the value itself
  std::string reason;
};

class JsonSchema {
 public:
  explicit JsonSchema(claude::emulator::Json schema);

  // Problems of `value`, most specific first within each failing branch; empty when it is valid.
  [[nodiscard]] std::vector<SchemaProblem> validate(const claude::emulator::Json& value) const;

 private:
  void check_keywords(const claude::emulator::Json& schema, const std::string& where) const;
  void walk(const claude::emulator::Json& schema, const claude::emulator::Json& value,
            const std::string& pointer, std::vector<SchemaProblem>& out) const;
  [[nodiscard]] const claude::emulator::Json& resolve(const std::string& ref) const;

  claude::emulator::Json root_;
};

}  // namespace claude::conformance
