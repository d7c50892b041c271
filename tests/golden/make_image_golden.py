"""Writes tests/golden/image.json: resize references from PyTorch (bilinear with align_corners=False and
nearest-exact are tf 2's half-pixel-center resize methods). Run with /usr/bin/python3."""
import json
import os

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(t):
    return {"dtype": "float32", "shape": list(t.shape), "data": [float(v) for v in t.flatten()]}


def main():
    g = torch.Generator().manual_seed(0)
    image = torch.rand(5, 7, 2, generator=g)  # HWC
    nchw = image.permute(2, 0, 1).unsqueeze(0)
    cases = []
    for size in [(3, 4), (9, 11), (5, 7), (10, 3)]:
        for method, mode in [("bilinear", "bilinear"), ("nearest", "nearest-exact")]:
            kw = {"align_corners": False} if mode == "bilinear" else {}
            out = F.interpolate(nchw, size=size, mode=mode, **kw)[0].permute(1, 2, 0)
            cases.append({"size": list(size), "method": method, "output": tensor(out)})
    with open(os.path.join(HERE, "image.json"), "w") as f:
        json.dump({"image": tensor(image), "cases": cases}, f)


if __name__ == "__main__":
    main()
