#pragma once

// The members of GpuSpec, ModelPreset and ModelSpec that the JSON loaders
// fill, listed once: the table writer (tablewriter.cpp) writes each, and
// tst_builtintables compares each generated entry with what the loaders read
// from resources/. A member added to those structs is added here.
//
// Each list applies X(member) to every member path.

#define VRAM_GPU_MEMBERS(X)                                                                                            \
    X(id) X(name) X(vendor) X(architecture) X(computeCapability) X(launchYear) X(memory) X(usableMemory)               \
    X(nvidiaSmiTotal) X(memoryType) X(bandwidthGBps) X(peak.fp32) X(peak.tf32) X(peak.fp16) X(peak.bf16) X(peak.fp8)   \
    X(peak.int8) X(peak.fp4) X(supportsBf16) X(supportsFlashAttention2) X(supportsFp8) X(interconnect)                 \
    X(interconnectGBps) X(tdpWatts) X(pricePerHour) X(defaultShown) X(source) X(notes)

#define VRAM_PRESET_MEMBERS(X) X(id) X(name) X(hfRepo) X(source) X(paramsPublished) X(paramsActivePublished)

#define VRAM_MODEL_MEMBERS(X)                                                                                          \
    X(name) X(family) X(hidden) X(layers) X(heads) X(kvHeads) X(headDim) X(intermediate) X(vocab) X(learnedPositions)  \
    X(tokenTypes) X(maxPositions) X(gatedMlp) X(tiedEmbeddings) X(norm) X(normsPerLayer) X(finalNorm) X(embeddingNorm) \
    X(qkvBias) X(attnOutBias) X(mlpBias) X(lmHeadBias) X(qkNorm) X(qkNormWholeProjection) X(attentionSinks) X(pooler)  \
    X(encoderOnly) X(parallelBlock) X(mlpActivationParams) X(moe.experts) X(moe.expertsPerToken) X(moe.sharedExperts)  \
    X(moe.expertIntermediate) X(moe.denseLayers) X(moe.routerBias) X(moe.expertBias) X(moe.sharedExpertGate)           \
    X(kvLoraRank) X(qLoraRank) X(ropeHeadDim) X(rotaryDims) X(slidingRotaryDims) X(noRope) X(valueHeadDim)             \
    X(indexHeads) X(indexHeadDim) X(indexerLayers) X(msaIndexer) X(linearLayers) X(linearKeyHeads) X(linearValueHeads) \
    X(linearKeyDim) X(linearValueDim) X(linearConvKernel) X(gatedAttention) X(lightningAttention) X(shortConv)         \
    X(kimiDeltaAttention) X(fullRankOutputGate) X(blockAttentionResiduals) X(mambaLayers) X(mambaHeads)                \
    X(mambaHeadDim) X(ssmState) X(ssmGroups) X(mambaConvKernel) X(mambaConvBias) X(mambaProjBias) X(mambaNorm)         \
    X(attendingMambaLayers) X(sharedBlocks) X(adapterRank) X(attentionAdapters) X(ownStateCache) X(mambaTimeStepRank)  \
    X(ssmStateBytes) X(layersWithoutMlp) X(layersWithoutMixer) X(chunkedAttention) X(mtpLayers) X(loadMtp)             \
    X(mtpWindowed) X(mtpDenseMlp) X(mtpOwnHead) X(visionParameters) X(audioParameters) X(imageTokens)                  \
    X(visionConfigLayers) X(visionConfigHidden) X(defaultedKeys) X(ignoredKeys) X(familyGuessed) X(shapeGuessed)       \
    X(slidingWindow) X(slidingLayers) X(slidingKvHeads) X(slidingHeadDim) X(slidingValueHeadDim) X(slidingHeads)       \
    X(outputGatePerHead) X(keyIsValue) X(kvSharedLayers) X(wideMlpLayers) X(perLayerInputWidth) X(perLayerInputVocab)  \
    X(sinksWindowedOnly) X(layerScalars) X(mixersAsLinear) X(mlpsAsLinear) X(normPerBlock) X(mlpWidths)                \
    X(compressRatios) X(outputGroups) X(outputLoraRank) X(hyperConnections) X(hashRoutedLayers) X(moe.withDenseMlp)    \
    X(moe.routerScales) X(moe.latentWidth) X(moe.latentNorm) X(attentionDropout) X(hiddenDropout) X(softmaxInFp32)     \
    X(activationSavedTensors) X(torchDtype) X(checkpointFormat) X(checkpointGroupSize) X(checkpointQuantizedTargets)   \
    X(checkpointPartialTargets) X(checkpointRestFormat) X(checkpointRestTargets) X(checkpointRestPartialTargets)       \
    X(declaredParameters) X(unplacedParameters)
