#!/usr/bin/python3
"""Checks ONNX files with the onnx package's checker (Debian's python3-onnx): the full check, with shape
inference, that the ONNX export tests run on every file kerascpp writes.

    /usr/bin/python3 check_onnx.py MODEL.onnx [MODEL2.onnx ...]
    /usr/bin/python3 check_onnx.py --describe MODEL.onnx

Prints "ok MODEL" per valid file; a checker error is printed and the exit status is 1. --describe prints,
as one JSON object, what the file says of itself: graph name, producer, opsets, inputs and outputs with their
dimensions (a number, or the name of a dynamic one), the element types of the initializers and the op types.
"""
import json
import sys

import onnx


def dims(value):
    return [d.dim_param if d.dim_param else d.dim_value for d in value.type.tensor_type.shape.dim]


def describe(path):
    model = onnx.load(path)
    print(json.dumps({
        "graph": model.graph.name,
        "producer": model.producer_name,
        "producer_version": model.producer_version,
        "ir_version": model.ir_version,
        "opsets": {o.domain or "ai.onnx": o.version for o in model.opset_import},
        "inputs": [[v.name, dims(v)] for v in model.graph.input],
        "outputs": [[v.name, dims(v)] for v in model.graph.output],
        "initializer_types": sorted({onnx.TensorProto.DataType.Name(t.data_type) for t in model.graph.initializer}),
        "initializer_count": len(model.graph.initializer),
        "op_types": sorted({n.op_type for n in model.graph.node}),
    }))
    return 0


def main(paths):
    status = 0
    for path in paths:
        try:
            onnx.checker.check_model(onnx.load(path), full_check=True)
            print("ok", path)
        except Exception as error:  # the checker's ValidationError and inference errors alike
            print(f"error {path}: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if sys.argv[1] == "--describe" and len(sys.argv) == 3:
        sys.exit(describe(sys.argv[2]))
    sys.exit(main(sys.argv[1:]))
