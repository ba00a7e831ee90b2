// BERT encoder (Devlin et al. 2019; HF BertModel): word + position + token-type
// embeddings and LayerNorm, post-LN encoder layers (bidirectional attention, GELU MLP),
// optional pooler (dense + tanh on the [CLS] token). BertModel has no task head, so the
// training signal is a parameter-free mean of the pooled output (or of the last hidden
// state without pooler): it adds a backward pass without changing the parameter count.
#include "engine/models/config_reader.h"
#include "engine/models/graph_builder.h"
#include "engine/models/model_zoo.h"

namespace npu::engine {

Expected<Graph> buildBert(const nlohmann::json& config, const ZooShape& shape) {
    ConfigReader cfg(config, "model.config");
    const auto hidden = cfg.positiveInt("hidden");
    const auto layers = cfg.positiveInt("layers");
    const auto heads = cfg.positiveInt("heads");
    const auto vocab = cfg.positiveInt("vocab");
    const auto maxSeq = cfg.positiveInt("max_seq", 512);
    const auto ffn = cfg.positiveInt("ffn", 4 * hidden);
    const auto typeVocab = cfg.positiveInt("type_vocab", 2);
    const bool pooler = cfg.boolean("pooler", true);
    if (auto s = cfg.finish(); !s) return s.error();
    if (hidden % heads != 0) return makeError("model.config.heads: " + std::to_string(heads) + " does not divide hidden " + std::to_string(hidden));
    if (shape.seq > maxSeq) return makeError("training.seq: " + std::to_string(shape.seq) + " exceeds model.config.max_seq " + std::to_string(maxSeq));
    const auto B = shape.batch, S = shape.seq;

    GraphBuilder b("bert");
    const int ids = b.input("input_ids", {B, S}, DType::i64);
    const int pos = b.input("position_ids", {S}, DType::i64);
    const int types = b.input("token_type_ids", {B, S}, DType::i64);
    auto linear = [&](const std::string& name, int in, std::int64_t outF, std::int64_t inF) {
        return b.op(OpKind::Linear, name, {in, b.weight(name + ".weight", {outF, inF}), b.weight(name + ".bias", {outF})});
    };
    auto layerNorm = [&](const std::string& name, int in) {
        return b.op(OpKind::LayerNormalization, name, {in, b.weight(name + ".weight", {hidden}), b.weight(name + ".bias", {hidden})},
                    {{"axis", std::int64_t{-1}}});
    };
    const int w = b.op(OpKind::Embedding, "embeddings.word", {ids, b.weight("embeddings.word.weight", {vocab, hidden})});
    const int p = b.op(OpKind::Embedding, "embeddings.position", {pos, b.weight("embeddings.position.weight", {maxSeq, hidden})});
    const int t = b.op(OpKind::Embedding, "embeddings.token_type", {types, b.weight("embeddings.token_type.weight", {typeVocab, hidden})});
    int x = layerNorm("embeddings.LayerNorm", b.op(OpKind::Add, "embeddings.add_type", {b.op(OpKind::Add, "embeddings.add_pos", {w, p}), t}));
    const Attributes attnAttrs{{"heads", heads}, {"kv_heads", heads}, {"causal", std::int64_t{0}}};
    for (std::int64_t i = 0; i < layers; ++i) {
        const std::string pre = "layers." + std::to_string(i) + ".";
        b.setBlock("layers." + std::to_string(i));
        const int q = linear(pre + "attn.q_proj", x, hidden, hidden);
        const int k = linear(pre + "attn.k_proj", x, hidden, hidden);
        const int v = linear(pre + "attn.v_proj", x, hidden, hidden);
        const int a = b.ops(OpKind::ScaledDotProductAttention, pre + "attn.sdpa", {q, k, v}, attnAttrs, 2)[0];
        x = layerNorm(pre + "attn.LayerNorm", b.op(OpKind::Add, pre + "attn.residual", {x, linear(pre + "attn.o_proj", a, hidden, hidden)}));
        const int h = b.op(OpKind::Gelu, pre + "mlp.gelu", {linear(pre + "mlp.fc", x, ffn, hidden)});
        x = layerNorm(pre + "mlp.LayerNorm", b.op(OpKind::Add, pre + "mlp.residual", {x, linear(pre + "mlp.proj", h, hidden, ffn)}));
    }
    b.setBlock("");
    int out = x;
    if (pooler) {
        const int cls = b.op(OpKind::Gather, "pooler.cls", {x, b.input("cls_index", {}, DType::i64)}, {{"axis", std::int64_t{1}}});
        out = b.op(OpKind::Tanh, "pooler.tanh", {linear("pooler.dense", cls, hidden, hidden)});
    }
    b.markOutput(b.op(OpKind::MeanLoss, "loss", {out}));
    return b.finish();
}

}  // namespace npu::engine
