#include "page_assets.hpp"

namespace claude::report_html {

const std::string_view kPageStyle = R"css(
:root { --pass: #1a7f37; --fail: #cf222e; --other: #9a6700; --ink: #1f2328; --muted: #656d76; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--ink); margin: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 6px; }
.meta, .origin, .description { color: var(--muted); }
table.cases { border-collapse: collapse; margin: 12px 0 24px; }
table.cases td, table.cases th { padding: 3px 10px; border-bottom: 1px solid #d0d7de; text-align: left; }
.verdict { font-weight: 600; padding: 1px 6px; border-radius: 4px; color: #fff; }
.verdict.pass { background: var(--pass); }
.verdict.fail, .verdict.error { background: var(--fail); }
.verdict.other { background: var(--other); }
section.case { border: 1px solid #d0d7de; border-radius: 6px; padding: 12px 16px; margin: 0 0 18px; }
section.case.failing { border-color: var(--fail); }
body.only-failures section.case:not(.failing), body.only-failures tr.case-row:not(.failing) { display: none; }
pre.finding { background: #f6f8fa; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
svg.sequence { display: block; margin-top: 8px; }
svg.sequence text { font: 12px ui-monospace, monospace; fill: var(--ink); }
svg.sequence .lifeline-name { font: 600 13px system-ui, sans-serif; }
svg.sequence .time, svg.sequence .axis { fill: var(--muted); }
svg.sequence .lifeline { stroke: #8c959f; stroke-dasharray: 4 4; }
svg.sequence .msg line { stroke-width: 1.5; }
svg.sequence .msg.in line { stroke: #0969da; }
svg.sequence .msg.out line { stroke: #8250df; }
svg.sequence .msg.err circle { fill: var(--other); }
svg.sequence .msg.err .label { fill: var(--other); font-style: italic; }
svg.sequence .msg.unanswered .label { fill: var(--other); font-weight: 600; }
svg.sequence .msg.failed line { stroke: var(--fail); stroke-dasharray: 6 3; }
svg.sequence .msg.failed .label { fill: var(--fail); }
svg.sequence .msg.mismatch line { stroke: var(--fail); stroke-width: 3; }
svg.sequence .msg.mismatch .label, svg.sequence .mismatch-note { fill: var(--fail); font-weight: 700; }
svg.sequence .pair { fill: none; stroke: #8c959f; stroke-width: 1.5; }
svg.sequence .linked line, svg.sequence path.linked { stroke: #bf8700; stroke-width: 3; }
svg.sequence .linked .label { fill: #bf8700; }
p.empty { color: var(--muted); font-style: italic; }
)css";

const std::string_view kErrorRecorderScript = R"js(
window.addEventListener('error', function (event) {
  var root = document.documentElement;
  root.setAttribute('data-script-errors',
                    (root.getAttribute('data-script-errors') || '') + event.message + ';');
});
)js";

const std::string_view kPageScript = R"js(
(function () {
  'use strict';
  // Hovering either side of a control request/response pair (or its bracket) lights up all three.
  var members = document.querySelectorAll('[data-pair]');
  members.forEach(function (element) {
    var key = element.getAttribute('data-pair');
    var group = document.querySelectorAll('[data-pair="' + key + '"]');
    element.addEventListener('mouseenter', function () {
      group.forEach(function (g) { g.classList.add('linked'); });
    });
    element.addEventListener('mouseleave', function () {
      group.forEach(function (g) { g.classList.remove('linked'); });
    });
  });
  var onlyFailures = document.getElementById('only-failures');
  if (onlyFailures) {
    document.body.classList.toggle('only-failures', onlyFailures.checked);
    onlyFailures.addEventListener('change', function () {
      document.body.classList.toggle('only-failures', onlyFailures.checked);
    });
  }
  document.documentElement.setAttribute(
      'data-report-ready', String(document.querySelectorAll('section.case').length));
})();
)js";

}  // namespace claude::report_html
