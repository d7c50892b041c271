"""Writes tests/golden/preprocessing_image.json: references for the image preprocessing layers, computed
independently of kerascpp. Run with /usr/bin/python3 (Debian's python3-torch and python3-numpy).

- Resizing: PyTorch's interpolate (bilinear with align_corners=False and nearest-exact are tf.image.resize's
  half-pixel-centre methods; adaptive average pooling is "area" for whole-number downscale factors). Bicubic
  is tf.image.resize's Keys cubic (a = -0.5, taps outside the image weighted 0 and the rest renormalised),
  written here in NumPy with exact coefficients, so the C++ table of 1024 steps agrees to ~1e-3.
- crop_to_aspect_ratio / CenterCrop / RandomCrop at inference: a NumPy centred crop, then PyTorch's resize.
- RandomRotation with a fixed angle: PyTorch's grid_sample on the rotated sampling grid (padding
  "reflection" with align_corners=False is fill_mode "reflect", "border" is "nearest", "zeros" is "constant"
  with fill_value 0).
- RandomTranslation by whole pixels: NumPy shifts ("wrap" is np.roll, "constant" a shift with the fill value).
- RandomZoom with a fixed zoom: grid_sample on the zoom grid.
- RandomBrightness with a fixed factor: NumPy's clip(x + f * 255). (RandomContrast cannot fix its factor: its
  test checks the transform from the output's own statistics.)
"""
import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(a):
    a = np.asarray(a, dtype=np.float32)
    return {"dtype": "float32", "shape": list(a.shape), "data": [float(v) for v in a.flatten()]}


def torch_resize(nhwc, size, mode):
    x = torch.from_numpy(nhwc).permute(0, 3, 1, 2)
    if mode == "area":
        y = F.adaptive_avg_pool2d(x, size)
    else:
        kw = {"align_corners": False} if mode == "bilinear" else {}
        y = F.interpolate(x, size=size, mode={"bilinear": "bilinear", "nearest": "nearest-exact"}[mode], **kw)
    return y.permute(0, 2, 3, 1).numpy()


def keys_weights(out_len, in_len):
    """[out_len, in_len] matrix of tf's half-pixel Keys cubic (a = -0.5) with renormalised border taps."""
    def cubic(d):
        d = abs(d)
        if d <= 1:
            return 1.5 * d ** 3 - 2.5 * d ** 2 + 1
        if d < 2:
            return -0.5 * d ** 3 + 2.5 * d ** 2 - 4 * d + 2
        return 0.0
    m = np.zeros((out_len, in_len))
    scale = in_len / out_len
    for o in range(out_len):
        c = (o + 0.5) * scale - 0.5
        base = math.floor(c)
        for i in range(base - 1, base + 3):
            if 0 <= i < in_len:
                m[o, i] = cubic(c - i)
        m[o] /= m[o].sum()
    return m


def bicubic(nhwc, size):
    wy, wx = keys_weights(size[0], nhwc.shape[1]), keys_weights(size[1], nhwc.shape[2])
    return np.einsum("yh,nhwc,xw->nyxc", wy, nhwc.astype(np.float64), wx)


def centre_crop_to_aspect(nhwc, size):
    h, w = nhwc.shape[1:3]
    ch = min(h, int(w * size[0] / size[1]))
    cw = min(w, int(h * size[1] / size[0]))
    top, left = int((h - ch) / 2), int((w - cw) / 2)
    return nhwc[:, top:top + ch, left:left + cw, :]


def sample(nhwc, in_x, in_y, mode, padding):
    """grid_sample at pixel coordinates (in_x, in_y) of shape [h, w], align_corners=False."""
    n, h, w, _ = nhwc.shape
    gx = (2 * in_x + 1) / w - 1
    gy = (2 * in_y + 1) / h - 1
    grid = torch.from_numpy(np.stack([gx, gy], -1)[None].repeat(n, 0)).double()
    x = torch.from_numpy(nhwc).permute(0, 3, 1, 2).double()
    y = F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=False)
    return y.permute(0, 2, 3, 1).numpy()


def main():
    rng = np.random.default_rng(19)
    image = rng.uniform(0, 255, size=(2, 6, 8, 3)).astype(np.float32)
    out = {"image": tensor(image)}

    resize = []
    for size in [(3, 4), (9, 11), (6, 8), (4, 13)]:
        for mode in ["bilinear", "nearest"]:
            resize.append({"size": list(size), "interpolation": mode, "crop_to_aspect_ratio": False,
                           "output": tensor(torch_resize(image, size, mode))})
        resize.append({"size": list(size), "interpolation": "bicubic", "crop_to_aspect_ratio": False,
                       "output": tensor(bicubic(image, size))})
        resize.append({"size": list(size), "interpolation": "bilinear", "crop_to_aspect_ratio": True,
                       "output": tensor(torch_resize(np.ascontiguousarray(centre_crop_to_aspect(image, size)),
                                                     size, "bilinear"))})
    for size in [(3, 4), (2, 2), (6, 2)]:
        resize.append({"size": list(size), "interpolation": "area", "crop_to_aspect_ratio": False,
                       "output": tensor(torch_resize(image, size, "area"))})
    out["resize"] = resize

    out["center_crop"] = []
    for size in [(4, 4), (3, 8), (5, 5), (9, 5)]:
        h, w = size
        if h <= 6 and w <= 8:
            top, left = (6 - h) // 2, (8 - w) // 2
            want = image[:, top:top + h, left:left + w, :]
        else:
            want = torch_resize(np.ascontiguousarray(centre_crop_to_aspect(image, size)), size, "bilinear")
        out["center_crop"].append({"size": list(size), "output": tensor(want)})

    ys, xs = np.meshgrid(np.arange(6, dtype=np.float64), np.arange(8, dtype=np.float64), indexing="ij")
    rotation = []
    for factor in [0.1, -0.27]:
        a = factor * 2 * math.pi
        c, s = math.cos(a), math.sin(a)
        x_off = (7 - (c * 7 - s * 5)) / 2
        y_off = (5 - (s * 7 + c * 5)) / 2
        in_x = c * xs - s * ys + x_off
        in_y = s * xs + c * ys + y_off
        for fill, padding in [("reflect", "reflection"), ("nearest", "border"), ("constant", "zeros")]:
            for interp in ["bilinear", "nearest"]:
                rotation.append({"factor": factor, "fill_mode": fill, "interpolation": interp,
                                 "output": tensor(sample(image, in_x, in_y, interp, padding))})
    out["rotation"] = rotation

    zoom = []
    for hz, wz in [(0.5, 0.5), (-0.25, 0.5)]:
        zy, zx = 1 + hz, 1 + wz
        in_x = zx * xs + 3.5 * (1 - zx)
        in_y = zy * ys + 2.5 * (1 - zy)
        for fill, padding in [("reflect", "reflection"), ("constant", "zeros")]:
            zoom.append({"height_factor": hz, "width_factor": wz, "fill_mode": fill,
                         "output": tensor(sample(image, in_x, in_y, "bilinear", padding))})
    out["zoom"] = zoom

    translation = []
    for hf, wf in [(0.5, 0.25), (-1 / 6, -0.375)]:
        dy, dx = round(hf * 6), round(wf * 8)
        wrapped = np.roll(image, (dy, dx), axis=(1, 2))
        filled = np.full_like(image, 7.0)
        src = image[:, max(0, -dy):6 - max(0, dy), max(0, -dx):8 - max(0, dx), :]
        filled[:, max(0, dy):max(0, dy) + src.shape[1], max(0, dx):max(0, dx) + src.shape[2], :] = src
        translation.append({"height_factor": hf, "width_factor": wf, "wrap": tensor(wrapped), "constant_7": tensor(filled)})
    out["translation"] = translation

    out["brightness"] = []
    for f in [0.25, -0.5]:
        out["brightness"].append({"factor": f, "output": tensor(np.clip(image + f * 255, 0, 255))})

    with open(os.path.join(HERE, "preprocessing_image.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
