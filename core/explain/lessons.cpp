#include "core/explain/lessons.h"

#include "core/analysis/fit.h"
#include "core/analysis/performance.h"
#include "core/analysis/utilization.h"
#include "core/engine/estimate.h"
#include "core/explain/rulesofthumb.h"

#include <cmath>

namespace core {

const std::string &localized(const LocalizedText &text, const std::string &language)
{
    const auto it = text.find(language);
    if (it != text.end() && !it->second.empty())
        return it->second;
    static const std::string empty;
    const auto en = text.find("en");
    return en != text.end() ? en->second : empty;
}

const std::vector<std::string> &lessonTools()
{
    static const std::vector<std::string> tools = {"utilization"};
    return tools;
}

namespace {

double stepTerms(const Estimate &e, std::initializer_list<TermId> ids)
{
    const PhaseTotal *phase = &e.phases.front();
    for (const PhaseTotal &p : e.phases)
        if (p.phase == Phase::OptimizerStep)
            phase = &p;
    double sum = 0;
    for (TermId id : ids)
        sum += static_cast<double>(phase->terms[static_cast<std::size_t>(id)].count());
    return sum;
}

} // namespace

double evaluateCheck(const Lesson &lesson, const LessonCheck &c, const Catalog &catalog)
{
    const Scenario &s = c.variant ? *c.variant : lesson.scenario;
    if (c.quantity == "utilization_percent")
        return flopsUtilizationPercent(c.measured, c.reference);
    if (c.quantity == "throughput_ratio_percent")
        return throughputRatioPercent(c.measured, c.reference);
    if (c.quantity == "mfu_percent") {
        const GpuSpec *gpu = catalog.find(c.gpu);
        return gpu ? modelFlopsUtilizationPercent(s, c.measured, peakTflopsFor(s, *gpu)) : std::nan("");
    }
    if (c.quantity == "params")
        return static_cast<double>(countParameters(s.model).total);
    if (c.quantity == "rule_bytes") {
        for (const rules::RuleCheck &r : compareRulesOfThumb(s))
            if (c.rule == r.id)
                return static_cast<double>(r.rule.count());
        return std::nan("");
    }
    const Estimate e = estimate(s);
    if (c.quantity == "weights_bytes")
        return stepTerms(e, {TermId::Weights});
    if (c.quantity == "model_states_bytes")
        return stepTerms(e, {TermId::Weights, TermId::MasterWeights, TermId::Gradients, TermId::Optimizer});
    if (c.quantity == "total_bytes")
        return static_cast<double>(e.total.count());
    if (c.quantity == "activations_bytes")
        return static_cast<double>(e.phases.front().terms[static_cast<std::size_t>(TermId::Activations)].count());
    if (c.quantity == "term_bytes")
        return c.term ? static_cast<double>(e.term(*c.term).count()) : std::nan("");
    const EstimateWithFits fits = estimateWithFits(s, catalog, {c.gpu});
    if (fits.fits.empty())
        return std::nan("");
    const GpuFit &fit = fits.fits.front();
    if (c.quantity == "gpus_needed")
        return fit.gpusNeeded;
    if (c.quantity == "fits")
        return fit.fits ? 1 : 0;
    if (c.quantity == "max_seq")
        return static_cast<double>(fit.maxSequence);
    if (c.quantity == "max_batch")
        return static_cast<double>(fit.maxBatch);
    return std::nan("");
}

bool checkHolds(const LessonCheck &c, double value)
{
    if (std::isnan(value))
        return false;
    if (c.expected && std::abs(value - *c.expected) > std::abs(*c.expected) * c.tolerancePercent / 100.0)
        return false;
    if (c.atLeast && value < *c.atLeast)
        return false;
    if (c.atMost && value > *c.atMost)
        return false;
    return true;
}

} // namespace core
