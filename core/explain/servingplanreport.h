#pragma once

#include "core/analysis/plan.h"
#include "core/base/message.h"
#include "core/explain/report.h"
#include "core/model/catalog.h"

#include <string>
#include <vector>

namespace core {

/// The serving plan's table as every front end shows it (the CLI, the
/// Deploy view, the Markdown report): the columns' headers and one row of
/// cells per layout, in the reader's language.
struct ServingPlanTable
{
    std::vector<std::string> headers;
    std::vector<std::vector<std::string>> rows;
    /// Columns of words (engine, GPU, replica, KV format, limit), set left;
    /// the others are figures, set right.
    std::vector<bool> textColumns;
};

/// The targets and the request mix the plan answers: "Llama 3 8B: prompts of
/// 1,792 tokens, 256 output tokens, 10.00 requests/s; time to first token
/// under 500.0 ms; time per output token under 50.0 ms (means)".
std::string servingPlanHeading(const Scenario &base, Translator translator = nullptr);

ServingPlanTable servingPlanTable(const ServingPlan &plan, const Catalog &catalog, Translator translator = nullptr);

/// For each engine and GPU type the plan found no layout for, why its
/// largest replica (the most GPUs, then the widest tensor parallelism)
/// fails: "TensorRT-LLM on AMD Instinct MI300X 192GB (TP 8 x
/// PP 1, bf16): TensorRT-LLM runs on NVIDIA GPUs only".
std::vector<std::string> servingPlanRejections(const ServingPlan &plan, const ServingPlanRequest &request,
                                               const Catalog &catalog, Translator translator = nullptr);

/// A replica's KV format as the plan writes it: the format's id, or "auto"
/// (vLLM's and SGLang's spelling) where it follows the model's dtype.
std::string servingPlanKvId(const Scenario &replica);

/// "label:" above a list, in the reader's language (a Chinese colon is
/// full width); "label: value" is report.h's labelled().
std::string listTitle(const std::string &label, Translator translator = nullptr);

/// The words every front end shows around the table: the title ("Serving
/// plan"), what stands where no layout serves, the heading of the
/// rejections and of the assumptions.
std::string servingPlanTitle(Translator translator = nullptr);
std::string servingPlanNone(Translator translator = nullptr);
std::string servingPlanRejectedTitle(Translator translator = nullptr);
std::string servingPlanAssumptionsTitle(Translator translator = nullptr);

/// How the figures are worked out, one sentence each, cited, with the
/// decode bandwidth share and the MFU `base` assumes.
std::vector<std::string> servingPlanAssumptions(const Scenario &base, Translator translator = nullptr);

std::string servingPlanMarkdown(const Scenario &base, const ServingPlan &plan, const ServingPlanRequest &request,
                                const Catalog &catalog, const ReportMeta &meta);
/// One row per layout, machine-readable: ids and plain numbers.
std::string servingPlanCsv(const ServingPlan &plan);

} // namespace core
