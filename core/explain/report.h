#pragma once

#include "core/analysis/fit.h"
#include "core/analysis/matrix.h"
#include "core/analysis/suggest.h"
#include "core/base/message.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"
#include "core/scenario/fields.h"

#include <string>
#include <utility>
#include <vector>

namespace core {

/// Header of an exported report: what it is, when, for whom.
struct ReportMeta
{
    std::string title = "VRAM Planner estimate";
    std::string date;    ///< ISO 8601, supplied by the caller (core has no clock)
    std::string version; ///< program version
    ByteUnit unit = ByteUnit::GiB;
    /// The reader's language for everything but ids, numbers and names;
    /// nullptr: English.
    Translator translator = nullptr;
    /// A page for a proposal: terms nothing holds left out, the inputs as
    /// one paragraph, and the derivations' sources listed in place of the
    /// derivations.
    bool brief = false;
};

/// Which inputs a report lists: every one that matters, or (a brief
/// report) those whose 0 means "not asked" only when asked.
enum class InputsListed { All, Asked };

/// Every input that matters for the scenario as (label, value) pairs, in
/// the field registry's order: the "assumptions" block of every report.
std::vector<std::pair<std::string, std::string>> describeInputs(const Scenario &scenario,
                                                                Translator translator = nullptr,
                                                                InputsListed listed = InputsListed::All);

/// "label: value" in the reader's language (a Chinese colon is full width).
std::string labelled(const std::string &label, const std::string &value, Translator translator = nullptr);

/// One-line summary: "Llama 2 7B · full training · mixed precision · batch 4 · 2,048 tokens · 1 GPU".
std::string summarize(const Scenario &scenario, Translator translator = nullptr);

/// The assumptions line under an exported chart: what the bars depend on
/// beyond summarize()'s title (engine or stack, regime, checkpointing, KV
/// cache, attention, the layout) and the planner version and date.
std::string chartFooter(const Scenario &scenario, const ReportMeta &meta);

/// The sentence before FitSearch's list of suggestions: each alone, pairs, or none
/// (English, context "Report").
const char *suggestionsHeading(const std::vector<FitSuggestion> &found);

/// Why a GPU is short of "fits", the three largest terms where the verdict
/// looked: "As set, one GPU holds 19.28 GiB: weights 17.49 GiB, ..." or,
/// where no count fits, "With one layer per GPU (32 GPUs), each still
/// holds 9.8 GiB: workspace 6.0 GiB, ..." (training: "With ZeRO-3 over
/// 65,536 GPUs, ...").
std::string fitReasonText(const FitReason &reason, ByteUnit unit, Translator translator = nullptr);

/// The share of a term in the peak, and where it is held at more than at
/// the peak, that phase: "0.8 % (14.96 GiB in optimizer step)".
std::string termShareText(const Estimate &estimate, TermId id, ByteUnit unit, Translator translator = nullptr);

/// One change that makes `scenario` fit, as the reports and the window
/// write it: "Checkpointing: full → 61.23 GiB per GPU (each choice, the one
/// that keeps the most)".
std::string suggestionText(const Scenario &scenario, const FitSuggestion &suggestion, ByteUnit unit,
                           Translator translator = nullptr);

/// "KV cache", "backward", "needs 2 ×": the words reports and the window
/// use for terms, phases and verdicts.
std::string termName(TermId id, Translator translator = nullptr);
std::string phaseName(Phase phase, Translator translator = nullptr);
std::string verdictText(const GpuFit &fit, Translator translator = nullptr);

/// A Markdown report for budget proposals: inputs, every term with its
/// formula and source, the phases, the fit table and the warnings.
std::string markdownReport(const Scenario &scenario, const EstimateWithFits &result, const Catalog &catalog,
                           const ReportMeta &meta);

/// The same content as CSV in long form, one fact per row:
/// `section,item,field,value` (RFC 4180 quoting).
std::string csvReport(const Scenario &scenario, const EstimateWithFits &result, const Catalog &catalog,
                      const ReportMeta &meta);

/// A format x GPU matrix as a report: the scenario, then one row per weight
/// format and one column per GPU, each cell the longest context that fits
/// ("131,072") or how many of that GPU the scenario's context needs.
std::string matrixMarkdown(const Scenario &scenario, const FormatMatrix &matrix, const Catalog &catalog,
                           const ReportMeta &meta);
std::string matrixCsv(const FormatMatrix &matrix);
/// An input's value as the reports write it: a choice by its label, a
/// number with its unit, "(default)" after a value left to its default.
std::string fieldText(const FieldDescriptor &field, const Scenario &scenario, Translator translator = nullptr);

/// A CSV field, quoted where RFC 4180 asks; a Markdown table cell with its
/// pipes escaped and newlines as spaces.
std::string csvField(const std::string &text);
std::string markdownCell(const std::string &text);

/// One cell as the reports write it: the longest context, or "needs N x".
std::string matrixCellText(const MatrixCell &cell, Translator translator = nullptr);

} // namespace core
