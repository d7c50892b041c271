#!/usr/bin/env python3
"""Compares two .keras archives structurally: Python's zipfile, json and h5py only, knowing nothing of kerascpp.

  compare_keras_archives.py ORIGINAL.keras REWRITTEN.keras

Checks that the archives have the same entries (assets included), the same config.json up to key order,
a dtype written as a name or as the DTypePolicy object of that name, keys whose value is a default (null, false, an empty list, or Keras's default in DEFAULTS), build_config
(which Keras 3 versions record for different layers), shared_object_id markers and float rounding (relative 1e-6), and the same datasets in model.weights.h5 (paths, shapes, dtypes;
integer dtypes of one kind compare equal, as do float32 and float64 for the optimizer's scalars). Prints
each difference and exits 1 if there is any. Run with /usr/bin/python3 (Debian's python3-h5py).
"""
import io
import json
import sys
import zipfile

import h5py

# Keys a writer may leave out because their value is Keras's default.
DEFAULTS = {
    "seed": None, "lora_rank": None, "lora_alpha": None, "quantization_config": None, "synchronized": False,
    "ragged": False, "optional": False, "sparse": False, "autocast": True, "trainable": True,
    "registered_name": None, "build_config": None, "compile_config": None, "shared_object_id": None,
    "gradient_accumulation_steps": None, "loss_scale_factor": None, "ema_overwrite_frequency": None,
    "use_ema": False, "ema_momentum": 0.99, "weight_decay": None, "clipnorm": None, "global_clipnorm": None,
    "clipvalue": None, "run_eagerly": False, "steps_per_execution": 1, "jit_compile": False,
    "auto_scale_loss": True, "weighted_metrics": None, "loss_weights": None, "zero_output_for_mask": False,
    "unroll": False, "stateful": False, "go_backwards": False, "return_state": False, "dropout": 0.0,
    "recurrent_dropout": 0.0, "activity_regularizer": None, "noise_shape": None, "groups": 1,
}


def is_default(key, value):
    if key == "build_config":  # recorded or not depending on the Keras version (3.8+ builds stateless layers at once)
        return True
    if value is None or value is False or value == [] or value == {}:
        return True
    return key in DEFAULTS and DEFAULTS[key] == value


def policy_name(v):
    """Keras 3.0-3.3 wrote a layer's dtype as "float32", later versions as a DTypePolicy object."""
    if isinstance(v, dict) and v.get("class_name") in ("DTypePolicy", "FloatDTypePolicy", "Policy"):
        return v.get("config", {}).get("name")
    return v


# One class under the names different Keras 3 versions wrote (3.0-3.4 "OrthogonalInitializer", later "Orthogonal").
SAME_CLASS = {"OrthogonalInitializer": "Orthogonal", "IdentityInitializer": "Identity"}


def compare(a, b, where, out):
    if where.endswith("/class_name"):
        a, b = SAME_CLASS.get(a, a), SAME_CLASS.get(b, b)
    if where.endswith("/dtype"):
        a, b = policy_name(a), policy_name(b)
    if a in (None, [], {}) and b in (None, [], {}):  # an absent list written as null or empty
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key == "shared_object_id":
                continue
            if key not in b:
                if not is_default(key, a[key]):
                    out.append(f"{where}/{key}: only in the original ({json.dumps(a[key])[:80]})")
            elif key not in a:
                if where == "config.json/compile_config" and key == "optimizer":
                    continue  # the original named none: the rewritten file names compile()'s default
                if not is_default(key, b[key]):
                    out.append(f"{where}/{key}: only in the rewritten file ({json.dumps(b[key])[:80]})")
            else:
                compare(a[key], b[key], f"{where}/{key}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} items in the original, {len(b)} in the rewritten file")
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{where}[{i}]", out)
    elif isinstance(a, bool) or isinstance(b, bool):
        if a != b:
            out.append(f"{where}: {a!r} != {b!r}")
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if abs(a - b) > 1e-6 * max(abs(a), abs(b), 1e-30):
            out.append(f"{where}: {a!r} != {b!r}")
    elif a != b:
        out.append(f"{where}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}")


def datasets(zf):
    found = {}
    with h5py.File(io.BytesIO(zf.read("model.weights.h5")), "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                kind = obj.dtype.kind
                found[name] = (tuple(obj.shape), "int" if kind in "iu" else str(obj.dtype) if obj.shape else "scalar-" + kind)
        f.visititems(visit)
    return found


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    a, b = (zipfile.ZipFile(p) for p in sys.argv[1:])
    out = []
    names_a, names_b = sorted(a.namelist()), sorted(b.namelist())
    if names_a != names_b:
        out.append(f"entries: {names_a} != {names_b}")
    compare(json.loads(a.read("config.json")), json.loads(b.read("config.json")), "config.json", out)
    da, db = datasets(a), datasets(b)
    # An original whose compile_config names no optimizer (Keras writes none when it cannot serialize it)
    # holds state no reader can attribute: the rewritten file's optimizer is compile()'s default.
    original_compile = json.loads(a.read("config.json")).get("compile_config") or {}
    skip_optimizer = "optimizer" not in original_compile
    for name in sorted(set(da) | set(db)):
        if skip_optimizer and name.startswith("optimizer/"):
            continue
        if da.get(name) != db.get(name):
            out.append(f"model.weights.h5/{name}: {da.get(name)} != {db.get(name)}")
    for line in out:
        print(line)
    print(f"{len(out)} difference(s)")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
