#pragma once

// The text forms of the list inputs, as the CLI and scenario files spell
// them: LoRA targets, llama.cpp's tensor split, GPU id lists.

#include "core/scenario/scenario.h"

#include <string>
#include <vector>

namespace core {

/// "q,k,v": the slots' ids joined.
std::string targetsText(const std::vector<LinearSlot> &slots);
/// The slots of a comma list; an unknown id is skipped (the field's check
/// names it before a value is assigned).
std::vector<LinearSlot> parseTargets(const std::string &text);

/// "24,12": a split as llama.cpp's --tensor-split spells it.
std::string splitText(const std::vector<double> &split);
/// Every comma-separated entry as a number; one that is not becomes NaN,
/// which validateScenario reports.
std::vector<double> parseSplit(const std::string &text);

/// "rtx-4090,rtx-3090": ids as the CLI and scenario files spell a list.
std::string idListText(const std::vector<std::string> &ids);
/// The comma-separated ids of `text`, spaces around each dropped.
std::vector<std::string> splitIds(const std::string &text);

} // namespace core
