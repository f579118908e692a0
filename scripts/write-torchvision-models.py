#!/usr/bin/env python3
"""Writes torchvision architectures as ONNX graphs, as the TorchScript exporter writes them
(opset 17, batch 1, input `input` [1, 3, 224, 224], BatchNormalization kept, shape operands
folded to constants), without PyTorch: for checking a calibration on real architectures that no
calibration measures (scripts/check-calibration.py). Each model's parameter count (less the
BatchNormalization running statistics) equals torchvision's. Weights: random, He-scaled; BN
mean 0, variance 1.

  scripts/write-torchvision-models.py OUT_DIR [NAME...]     (default: every model below)
"""
import math, sys, os
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

rng = np.random.default_rng(7)


class B:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, p):
        self.n += 1
        return f"{p}_{self.n}"

    def init(self, arr, p="w"):
        nm = self.name(p)
        self.inits.append(numpy_helper.from_array(arr.astype(np.float32) if arr.dtype != np.int64 else arr, nm))
        return nm

    def node(self, op, ins, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, ins, [out], name=self.name(op), **attrs))
        return out

    def conv(self, x, cin, cout, k, s=1, g=1, bias=False, pad=None):
        p = (k // 2) if pad is None else pad
        w = rng.standard_normal((cout, cin // g, k, k)) * math.sqrt(2.0 / (cin // g * k * k))
        ins = [x, self.init(w)]
        if bias:
            ins.append(self.init(rng.standard_normal(cout) * 0.01, "b"))
        return self.node("Conv", ins, dilations=[1, 1], group=g, kernel_shape=[k, k],
                         pads=[p, p, p, p], strides=[s, s])

    def bn(self, x, c):
        return self.node("BatchNormalization",
                         [x, self.init(np.ones(c)), self.init(np.zeros(c)), self.init(np.zeros(c)),
                          self.init(np.ones(c))], epsilon=1e-5, momentum=0.9)

    def cbr(self, x, cin, cout, k, s=1, g=1, act=True):
        y = self.bn(self.conv(x, cin, cout, k, s, g), cout)
        return self.node("Relu", [y]) if act else y

    def head(self, x, c, classes=1000, pool="gap"):
        if pool == "gap":
            x = self.node("Flatten", [self.node("GlobalAveragePool", [x])], axis=1)
        else:  # x.mean([2, 3])
            x = self.node("ReduceMean", [x], axes=[2, 3], keepdims=0)
        w = rng.standard_normal((classes, c)) * math.sqrt(1.0 / c)
        return self.node("Gemm", [x, self.init(w), self.init(np.zeros(classes), "b")],
                         alpha=1.0, beta=1.0, transB=1)

    def save(self, out, path, size=224):
        x = helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])
        self.nodes.append(helper.make_node("Identity", [out], ["output"], name="out"))
        y = helper.make_tensor_value_info("output", TensorProto.FLOAT, None)
        g = helper.make_graph(self.nodes, "g", [x], [y], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="pytorch")
        m.ir_version = 8
        onnx.save(m, path)


# --- RegNet (torchvision.models.regnet) ---
def make_divisible(v, d, min_value=None):
    nv = max(d, int(v + d / 2) // d * d)
    if nv < 0.9 * v:
        nv += d
    return nv


def regnet_params(depth, w_0, w_a, w_m, group_width):
    widths_cont = np.arange(depth) * w_a + w_0
    cap = np.round(np.log(widths_cont / w_0) / math.log(w_m))
    bw = (np.round(np.divide(w_0 * np.power(w_m, cap), 8)) * 8).astype(int).tolist()
    splits = [w != wp or r != rp for w, wp, r, rp in zip(bw + [0], [0] + bw, bw + [0], [0] + bw)]
    sw = [w for w, t in zip(bw, splits[:-1]) if t]
    sd = np.diff([d for d, t in enumerate(splits) if t]).tolist()
    gw = [min(group_width, w) for w in sw]
    sw = [make_divisible(w, g) for w, g in zip(sw, gw)]
    return sw, sd, gw


def regnet(depth, w_0, w_a, w_m, gw, se):
    b = B()
    x = b.cbr("input", 3, 32, 3, 2)
    cin = 32
    sw, sd, gws = regnet_params(depth, w_0, w_a, w_m, gw)
    for w, d, g in zip(sw, sd, gws):
        for i in range(d):
            s = 2 if i == 0 else 1
            y = b.cbr(x, cin, w, 1)
            y = b.cbr(y, w, w, 3, s, w // g)
            if se:
                sq = int(round(0.25 * cin))
                z = b.node("GlobalAveragePool", [y])
                z = b.node("Relu", [b.conv(z, w, sq, 1, bias=True)])
                z = b.node("Sigmoid", [b.conv(z, sq, w, 1, bias=True)])
                y = b.node("Mul", [z, y])
            y = b.cbr(y, w, w, 1, act=False)
            sc = b.bn(b.conv(x, cin, w, 1, s), w) if (cin != w or s != 1) else x
            x = b.node("Relu", [b.node("Add", [sc, y])])
            cin = w
    return b, b.head(x, cin)


# --- ShuffleNetV2 ---
def shufflenet(repeats, chans):
    b = B()
    x = b.cbr("input", 3, chans[0], 3, 2)
    x = b.node("MaxPool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], ceil_mode=0,
               dilations=[1, 1])
    cin, hw = chans[0], 56
    for r, cout in zip(repeats, chans[1:4]):
        for i in range(r):
            bf = cout // 2
            if i == 0:
                hw //= 2
                b1 = b.bn(b.conv(x, cin, cin, 3, 2, cin), cin)
                b1 = b.cbr(b1, cin, bf, 1)
                y = b.cbr(x, cin, bf, 1)
                y = b.bn(b.conv(y, bf, bf, 3, 2, bf), bf)
                y = b.cbr(y, bf, bf, 1)
                cat = b.node("Concat", [b1, y], axis=1)
            else:
                sp = b.name("split")
                o1, o2 = sp + "_a", sp + "_b"
                b.nodes.append(helper.make_node(
                    "Split", [x, b.init(np.array([bf, bf], dtype=np.int64), "s")], [o1, o2],
                    name=sp, axis=1))
                y = b.cbr(o2, bf, bf, 1)
                y = b.bn(b.conv(y, bf, bf, 3, 1, bf), bf)
                y = b.cbr(y, bf, bf, 1)
                cat = b.node("Concat", [o1, y], axis=1)
            t = b.node("Reshape", [cat, b.init(np.array([1, 2, bf, hw, hw], dtype=np.int64), "s")],
                       allowzero=0)
            t = b.node("Transpose", [t], perm=[0, 2, 1, 3, 4])
            x = b.node("Reshape", [t, b.init(np.array([1, cout, hw, hw], dtype=np.int64), "s")],
                       allowzero=0)
            cin = cout
    x = b.cbr(x, cin, chans[4], 1)
    return b, b.head(x, chans[4], pool="mean")


# --- MNASNet ---
def mnas_round(v, alpha):
    val = v * alpha
    nv = max(8, int(val + 4) // 8 * 8)
    return nv + 8 if nv < 0.9 * val else nv


def mnasnet(alpha):
    d = [mnas_round(v, alpha) for v in [32, 16, 24, 40, 80, 96, 192, 320]]
    b = B()
    x = b.cbr("input", 3, d[0], 3, 2)
    x = b.cbr(x, d[0], d[0], 3, 1, d[0])
    x = b.cbr(x, d[0], d[1], 1, act=False)
    cin = d[1]
    for cout, k, s, e, r in [(d[2], 3, 2, 3, 3), (d[3], 5, 2, 3, 3), (d[4], 5, 2, 6, 3),
                             (d[5], 3, 1, 6, 2), (d[6], 5, 2, 6, 4), (d[7], 3, 1, 6, 1)]:
        for i in range(r):
            st = s if i == 0 else 1
            mid = cin * e
            y = b.cbr(x, cin, mid, 1)
            y = b.cbr(y, mid, mid, k, st, mid)
            y = b.cbr(y, mid, cout, 1, act=False)
            x = b.node("Add", [y, x]) if (cin == cout and st == 1) else y
            cin = cout
    x = b.cbr(x, cin, 1280, 1)
    return b, b.head(x, 1280, pool="mean")


# --- ResNet / ResNeXt / Wide ResNet bottleneck ---
def resnet(layers, groups=1, width_per_group=64):
    b = B()
    x = b.cbr("input", 3, 64, 7, 2)
    x = b.node("MaxPool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], ceil_mode=0,
               dilations=[1, 1])
    cin = 64
    for stage, (planes, n) in enumerate(zip([64, 128, 256, 512], layers)):
        for i in range(n):
            s = 2 if (i == 0 and stage > 0) else 1
            width = int(planes * (width_per_group / 64.0)) * groups
            out = planes * 4
            y = b.cbr(x, cin, width, 1)
            y = b.cbr(y, width, width, 3, s, groups)
            y = b.cbr(y, width, out, 1, act=False)
            sc = b.bn(b.conv(x, cin, out, 1, s), out) if (i == 0) else x
            x = b.node("Relu", [b.node("Add", [y, sc])])
            cin = out
    return b, b.head(x, cin)


MODELS = {
    "regnet_x_800mf": lambda: regnet(16, 56, 35.73, 2.28, 16, False),
    "regnet_y_800mf": lambda: regnet(14, 56, 38.84, 2.4, 16, True),
    "regnet_x_1_6gf": lambda: regnet(18, 80, 34.01, 2.25, 24, False),
    "regnet_y_1_6gf": lambda: regnet(27, 48, 20.71, 2.65, 24, True),
    "regnet_x_3_2gf": lambda: regnet(25, 88, 26.31, 2.25, 48, False),
    "shufflenet_v2_x0_5": lambda: shufflenet([4, 8, 4], [24, 48, 96, 192, 1024]),
    "shufflenet_v2_x1_5": lambda: shufflenet([4, 8, 4], [24, 176, 352, 704, 1024]),
    "shufflenet_v2_x2_0": lambda: shufflenet([4, 8, 4], [24, 244, 488, 976, 2048]),
    "mnasnet0_5": lambda: mnasnet(0.5),
    "mnasnet0_75": lambda: mnasnet(0.75),
    "mnasnet1_3": lambda: mnasnet(1.3),
    "resnet152": lambda: resnet([3, 8, 36, 3]),
    "wide_resnet50_2": lambda: resnet([3, 4, 6, 3], 1, 128),
    "resnext101_32x8d": lambda: resnet([3, 4, 23, 3], 32, 8),
}

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in (sys.argv[2:] or MODELS):
        b, y = MODELS[name]()
        b.save(y, os.path.join(out, name + ".onnx"))
        print(name, sum(np.prod(i.dims) for i in b.inits))
