#!/usr/bin/env node
// Every locale of `locale=` against ICU, an independent reading of CLDR's data: for each tag
// of the generated table (Sources/RingCore/Text/PercentFormat+CLDR.swift), the title
// `ring render` writes for 72.5 % at one decimal and for -5 % must be what Node's
// Intl.NumberFormat writes as a percentage with Latin digits and no grouping (bidi marks
// aside, which the table drops). The table names the CLDR release it came from; Node's ICU
// must carry the same one, or the check says so rather than compare two releases.
//
// Usage: node scripts/checks/check-locales.js PATH-TO-ring   (Node with full ICU)
"use strict";
const fs = require("fs");
const { execFileSync } = require("child_process");

const ring = process.argv[2];
if (!ring) { console.error("usage: check-locales.js PATH-TO-ring"); process.exit(2); }
const table = fs.readFileSync("Sources/RingCore/Text/PercentFormat+CLDR.swift", "utf8");
const tags = [...table.matchAll(/PercentFormat\(tag: "([^"]+)"/g)].map((match) => match[1]);
const release = table.match(/from CLDR (\d+)/)[1];
if (tags.length < 25) { console.error(`check-locales: only ${tags.length} locales in the table`); process.exit(1); }
if (process.versions.cldr.split(".")[0] !== release) {
  console.error(`check-locales: the table is from CLDR ${release}, Node's ICU carries CLDR ${process.versions.cldr}`);
  process.exit(1);
}
const marks = /[\u200e\u200f\u061c]/g;
function title(query) {
  const svg = execFileSync(ring, ["render", query]).toString();
  return svg.match(/<title>([^<]*)<\/title>/)[1].replace(/&lt;/g, "<").replace(/&amp;/g, "&");
}
function icu(tag, value, options) {
  const format = new Intl.NumberFormat(tag, { style: "percent", useGrouping: false, numberingSystem: "latn", ...options });
  if (format.resolvedOptions().locale.split("-u-")[0].toLowerCase() !== tag.toLowerCase()) {
    throw new Error(`ICU has no locale ${tag} (it resolved ${format.resolvedOptions().locale})`);
  }
  return format.format(value).replace(marks, "");
}
let passed = 0;
const failures = [];
for (const tag of tags) {
  const cases = [
    [`p=72.5&decimals=1&locale=${tag}`, icu(tag, 0.725, { minimumFractionDigits: 1, maximumFractionDigits: 1 })],
    [`p=-5&locale=${tag}`, icu(tag, -0.05, { maximumFractionDigits: 0 })],
  ];
  for (const [query, want] of cases) {
    const got = title(query);
    if (got === want) passed++;
    else failures.push(`${tag}: ${query} writes ${JSON.stringify(got)}, ICU ${JSON.stringify(want)}`);
  }
}
for (const failure of failures) console.log(`  FAIL  ${failure}`);
console.log(`check-locales: ${passed} passed, ${failures.length} failed (${tags.length} locales, CLDR ${release})`);
process.exit(failures.length ? 1 : 0);
