// Loads one GGUF file in the llama.cpp that node-llama-cpp bundles, on the
// CPU, creates one context and prints llama.cpp's own log lines, one per
// line, then exits. Run by measure_llamacpp.py; not part of the build.
//
//   node llamacpp_load.mjs NODE_MODULES_DIR '{"model": "...", "contextSize": 4096, ...}'
//
// The settings object: model (path), contextSize, batchSize (node-llama-cpp
// sets n_batch = n_ubatch to it), sequences, flashAttention (true|false),
// typeK / typeV (ggml type names: F16, Q8_0, Q4_0 ...), swaFullCache.
import { pathToFileURL } from "node:url";
import path from "node:path";

const [modulesDir, settingsJson] = process.argv.slice(2);
const settings = JSON.parse(settingsJson);
const entry = pathToFileURL(path.join(modulesDir, "node-llama-cpp", "dist", "index.js")).href;
const { getLlama, LlamaLogLevel, GgmlType } = await import(entry);

const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.debug,
    logger: (level, message) => process.stdout.write(message.endsWith("\n") ? message : message + "\n"),
});
const model = await llama.loadModel({ modelPath: settings.model, ignoreMemorySafetyChecks: true });
const options = {
    contextSize: settings.contextSize,
    batchSize: settings.batchSize,
    sequences: settings.sequences ?? 1,
    flashAttention: settings.flashAttention,
    ignoreMemorySafetyChecks: true,
    swaFullCache: settings.swaFullCache ?? false,
};
if (settings.typeK) options.experimentalKvCacheKeyType = GgmlType[settings.typeK];
if (settings.typeV) options.experimentalKvCacheValueType = GgmlType[settings.typeV];
const context = await model.createContext(options);
process.stdout.write(`#measure contextSize=${context.contextSize} batchSize=${context.batchSize}\n`);
await context.dispose();
await model.dispose();
await llama.dispose();
