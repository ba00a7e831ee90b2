#!/usr/bin/python3
"""Writes vit_b16_noweights.onnx: ViT-B/16 (Dosovitskiy et al. 2021; timm's
vit_base_patch16_224 layout) as torch.onnx.export(..., export_params=False) makes it:
every parameter is a graph input without data, the batch dimension is dynamic ("batch").
86,567,656 parameters; ~17.6 GMACs per 224x224 image.

Needs Debian's python3-onnx (apt-get install python3-onnx); only to regenerate the
committed model: /usr/bin/python3 tests/data/models/make_vit_b16_noweights.py [OUT.onnx]
"""
import sys

from onnx import TensorProto, helper, checker

HIDDEN, HEADS, LAYERS, MLP, PATCH, IMAGE, CLASSES = 768, 12, 12, 3072, 16, 224, 1000
TOKENS = (IMAGE // PATCH) ** 2 + 1

nodes, inputs = [], []
counter = [0]


def param(name, dims):
    inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, dims))
    return name


def const_ints(values, scalar=False):
    counter[0] += 1
    name = f"const_{counter[0]}"
    dims = [] if scalar else [len(values)]
    nodes.append(helper.make_node("Constant", [], [name], name=f"/Constant_{counter[0]}",
                                  value=helper.make_tensor(name, TensorProto.INT64, dims, values)))
    return name


def const_float(value):
    counter[0] += 1
    name = f"const_{counter[0]}"
    nodes.append(helper.make_node("Constant", [], [name], name=f"/Constant_{counter[0]}",
                                  value=helper.make_tensor(name, TensorProto.FLOAT, [], [value])))
    return name


def op(kind, ins, scope, **attrs):
    counter[0] += 1
    out = f"{scope}/{kind}_{counter[0]}_output_0"
    nodes.append(helper.make_node(kind, ins, [out], name=f"{scope}/{kind}_{counter[0]}", **attrs))
    return out


def linear(x, prefix, scope, n_in, n_out):
    y = op("MatMul", [x, param(prefix + ".weight", [n_in, n_out])], scope)
    return op("Add", [y, param(prefix + ".bias", [n_out])], scope)


def layer_norm(x, prefix, scope):
    return op("LayerNormalization", [x, param(prefix + ".weight", [HIDDEN]), param(prefix + ".bias", [HIDDEN])],
              scope, axis=-1, epsilon=1e-6)


pixels = "pixel_values"
inputs.append(helper.make_tensor_value_info(pixels, TensorProto.FLOAT, ["batch", 3, IMAGE, IMAGE]))

# Patch embedding, then the class token expanded to the batch and the position embedding.
x = op("Conv", [pixels, param("patch_embed.proj.weight", [HIDDEN, 3, PATCH, PATCH]),
                param("patch_embed.proj.bias", [HIDDEN])], "/patch_embed/proj",
       kernel_shape=[PATCH, PATCH], strides=[PATCH, PATCH])
x = op("Reshape", [x, const_ints([0, HIDDEN, -1])], "/patch_embed")
x = op("Transpose", [x], "/patch_embed", perm=[0, 2, 1])
batch = op("Slice", [op("Shape", [pixels], "/embed"), const_ints([0]), const_ints([1])], "/embed")
cls_shape = op("Concat", [batch, const_ints([1, HIDDEN])], "/embed", axis=0)
cls = op("Expand", [param("cls_token", [1, 1, HIDDEN]), cls_shape], "/embed")
x = op("Concat", [cls, x], "/embed", axis=1)
x = op("Add", [x, param("pos_embed", [1, TOKENS, HIDDEN])], "/embed")

head_dim = HIDDEN // HEADS
for i in range(LAYERS):
    p, s = f"blocks.{i}", f"/blocks/blocks.{i}"
    h = layer_norm(x, p + ".norm1", s + "/norm1")
    qkv = linear(h, p + ".attn.qkv", s + "/attn/qkv", HIDDEN, 3 * HIDDEN)
    qkv = op("Reshape", [qkv, const_ints([0, 0, 3, HEADS, head_dim])], s + "/attn")
    qkv = op("Transpose", [qkv], s + "/attn", perm=[2, 0, 3, 1, 4])
    q, k, v = (op("Gather", [qkv, const_ints([j], scalar=True)], s + "/attn", axis=0) for j in range(3))
    scores = op("MatMul", [q, op("Transpose", [k], s + "/attn", perm=[0, 1, 3, 2])], s + "/attn")
    scores = op("Mul", [scores, const_float(head_dim ** -0.5)], s + "/attn")
    probs = op("Softmax", [scores], s + "/attn", axis=-1)
    ctx = op("Transpose", [op("MatMul", [probs, v], s + "/attn")], s + "/attn", perm=[0, 2, 1, 3])
    ctx = op("Reshape", [ctx, const_ints([0, 0, HIDDEN])], s + "/attn")
    x = op("Add", [x, linear(ctx, p + ".attn.proj", s + "/attn/proj", HIDDEN, HIDDEN)], s)
    h = layer_norm(x, p + ".norm2", s + "/norm2")
    h = linear(h, p + ".mlp.fc1", s + "/mlp/fc1", HIDDEN, MLP)
    # GELU, erf form as torch exports it before opset 20: x * 0.5 * (1 + erf(x / sqrt 2))
    g = op("Erf", [op("Div", [h, const_float(2 ** 0.5)], s + "/mlp/act")], s + "/mlp/act")
    g = op("Mul", [op("Mul", [h, op("Add", [g, const_float(1.0)], s + "/mlp/act")], s + "/mlp/act"),
                   const_float(0.5)], s + "/mlp/act")
    x = op("Add", [x, linear(g, p + ".mlp.fc2", s + "/mlp/fc2", MLP, HIDDEN)], s)

x = layer_norm(x, "norm", "/norm")
cls_out = op("Gather", [x, const_ints([0], scalar=True)], "/head", axis=1)
logits = "logits"
nodes.append(helper.make_node("Gemm", [cls_out, param("head.weight", [CLASSES, HIDDEN]), param("head.bias", [CLASSES])],
                              [logits], name="/head/Gemm", transB=1))

graph = helper.make_graph(nodes, "vit_b16", inputs,
                          [helper.make_tensor_value_info(logits, TensorProto.FLOAT, ["batch", CLASSES])])
model = helper.make_model(graph, producer_name="npu-studio tests/data/models/make_vit_b16_noweights.py",
                          opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
checker.check_model(model)
out = sys.argv[1] if len(sys.argv) > 1 else __file__.replace("make_vit_b16_noweights.py", "vit_b16_noweights.onnx")
with open(out, "wb") as f:
    f.write(model.SerializeToString())
params = sum(1 if not i.type.tensor_type.shape.dim else
             __import__("math").prod(d.dim_value for d in i.type.tensor_type.shape.dim)
             for i in inputs[1:])
print(f"wrote {out}: {len(nodes)} nodes, {params} parameters")
