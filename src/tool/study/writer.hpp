#pragma once
// The report folder of `tilekit study`: report.md (tables, the plots it
// embeds, a few sentences derived from the numbers) written from study.json.
// Every measured number report.md states is written through one function
// that records where it came from (row id and field, or a ratio of two rows)
// in figures.json, so bench/check_study.py can recompute each of them.
#include <nlohmann/json.hpp>

#include <string>

namespace tilekit::tool::study {

/// Writes dir/report.md and dir/figures.json from the study JSON `j` (the
/// rows of report::to_json with an "id", a "study" and a "case" each, and a
/// "study" object: mode, studies run, backend defaults, failures, plots).
void write_report(const std::string& dir, const nlohmann::ordered_json& j);

}  // namespace tilekit::tool::study
