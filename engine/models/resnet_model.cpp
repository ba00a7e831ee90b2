// ResNet (He et al. 2016; torchvision layout, v1.5: stride on the 3x3 conv): 7x7 stem,
// BatchNorm, ReLU, max-pool, four stages of basic (depth 18/34) or bottleneck
// (50/101/152, expansion 4) blocks with 1x1 projection shortcuts, global average pool,
// fc, cross-entropy. NCHW shapes; BatchNorm running statistics are buffers, not
// parameters.
#include "engine/models/config_reader.h"
#include "engine/models/graph_builder.h"
#include "engine/models/model_zoo.h"

#include <array>

namespace npu::engine {
namespace {

struct ResnetBuilder {
    GraphBuilder& b;

    int conv(const std::string& name, int x, std::int64_t outC, std::int64_t kernel, std::int64_t stride) {
        const std::int64_t inC = b.tensor(x).shape.at(1);
        const std::int64_t pad = kernel / 2;
        return b.op(OpKind::Conv, name, {x, b.weight(name + ".weight", {outC, inC, kernel, kernel})},
                    {{"kernel_shape", std::vector<std::int64_t>{kernel, kernel}},
                     {"strides", std::vector<std::int64_t>{stride, stride}},
                     {"pads", std::vector<std::int64_t>{pad, pad, pad, pad}}});
    }
    int bn(const std::string& name, int x) {
        const std::int64_t c = b.tensor(x).shape.at(1);
        return b.op(OpKind::BatchNormalization, name,
                    {x, b.weight(name + ".weight", {c}), b.weight(name + ".bias", {c}), b.buffer(name + ".running_mean", {c}),
                     b.buffer(name + ".running_var", {c})},
                    {{"training_mode", std::int64_t{1}}});
    }
    // torchvision's nn.ReLU(inplace=True): the output overwrites its input (the BatchNorm's
    // output or the residual sum), so the two share one buffer; BatchNorm's backward reads
    // its own input, not its output, so nothing it needs is overwritten.
    int relu(const std::string& name, int x) { return b.op(OpKind::Relu, name, {x}, {{"inplace", std::int64_t{1}}}); }

    int block(const std::string& p, int x, std::int64_t width, std::int64_t stride, bool bottleneck) {
        const std::int64_t inC = b.tensor(x).shape.at(1);
        const std::int64_t outC = bottleneck ? width * 4 : width;
        int y;
        if (bottleneck) {
            y = relu(p + "relu1", bn(p + "bn1", conv(p + "conv1", x, width, 1, 1)));
            y = relu(p + "relu2", bn(p + "bn2", conv(p + "conv2", y, width, 3, stride)));
            y = bn(p + "bn3", conv(p + "conv3", y, outC, 1, 1));
        } else {
            y = relu(p + "relu1", bn(p + "bn1", conv(p + "conv1", x, width, 3, stride)));
            y = bn(p + "bn2", conv(p + "conv2", y, width, 3, 1));
        }
        int shortcut = x;
        if (stride != 1 || inC != outC) shortcut = bn(p + "downsample.1", conv(p + "downsample.0", x, outC, 1, stride));
        // torchvision's `out += identity`: the residual sum is written into the last BatchNorm's output.
        return relu(p + "relu_out", b.op(OpKind::Add, p + "add", {y, shortcut}, {{"inplace", std::int64_t{1}}}));
    }
};

}  // namespace

Expected<Graph> buildResnet(const nlohmann::json& config, const ZooShape& shape) {
    ConfigReader cfg(config, "model.config");
    const auto depth = cfg.positiveInt("depth", 50);
    const auto classes = cfg.positiveInt("classes", 1000);
    const auto image = cfg.positiveInt("image", 224);
    const auto channels = cfg.positiveInt("channels", 3);
    if (auto s = cfg.finish(); !s) return s.error();
    std::array<int, 4> blocks{};
    bool bottleneck = true;
    switch (depth) {
    case 18: blocks = {2, 2, 2, 2}; bottleneck = false; break;
    case 34: blocks = {3, 4, 6, 3}; bottleneck = false; break;
    case 50: blocks = {3, 4, 6, 3}; break;
    case 101: blocks = {3, 4, 23, 3}; break;
    case 152: blocks = {3, 8, 36, 3}; break;
    default: return makeError("model.config.depth: expected 18, 34, 50, 101 or 152, got " + std::to_string(depth));
    }
    if (image < 32) return makeError("model.config.image: expected at least 32 pixels, got " + std::to_string(image));

    GraphBuilder b("resnet" + std::to_string(depth));
    ResnetBuilder r{b};
    const int images = b.input("images", {shape.batch, channels, image, image}, DType::f32);
    const int labels = b.input("labels", {shape.batch}, DType::i64);
    b.setBlock("stem");
    int x = r.relu("relu", r.bn("bn1", r.conv("conv1", images, 64, 7, 2)));
    x = b.op(OpKind::MaxPool, "maxpool", {x},
             {{"kernel_shape", std::vector<std::int64_t>{3, 3}}, {"strides", std::vector<std::int64_t>{2, 2}},
              {"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
    const std::array<std::int64_t, 4> widths{64, 128, 256, 512};
    for (int stage = 0; stage < 4; ++stage) {
        for (int i = 0; i < blocks[static_cast<size_t>(stage)]; ++i) {
            const std::string name = "layer" + std::to_string(stage + 1) + "." + std::to_string(i);
            b.setBlock(name);
            const std::int64_t stride = (i == 0 && stage > 0) ? 2 : 1;
            x = r.block(name + ".", x, widths[static_cast<size_t>(stage)], stride, bottleneck);
        }
    }
    b.setBlock("");
    x = b.op(OpKind::Flatten, "flatten", {b.op(OpKind::GlobalAveragePool, "avgpool", {x})}, {{"axis", std::int64_t{1}}});
    const std::int64_t features = b.tensor(x).shape.at(1);
    const int logits = b.op(OpKind::Linear, "fc", {x, b.weight("fc.weight", {classes, features}), b.weight("fc.bias", {classes})});
    const int logProbs = b.op(OpKind::LogSoftmax, "loss.log_softmax", {logits}, {{"axis", std::int64_t{-1}}});
    b.markOutput(b.op(OpKind::NLLLoss, "loss.nll", {logProbs, labels}));
    return b.finish();
}

}  // namespace npu::engine
