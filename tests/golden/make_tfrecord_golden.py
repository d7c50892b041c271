"""Writes tests/golden/examples.tfrecord (and .tfrecord.gz): tf.train.Example records made by Python's
protobuf runtime (Debian's python3-protobuf), not by kerascpp, plus examples.json with the values.

The Example messages are declared here by hand (field numbers of tensorflow/core/example/*.proto),
so TensorFlow is not needed. Run with /usr/bin/python3.
"""
import gzip
import json
import os
import struct

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

HERE = os.path.dirname(os.path.abspath(__file__))


def example_class():
    f = descriptor_pb2.FileDescriptorProto(name="example_fixture.proto", package="tensorflow", syntax="proto3")
    T = descriptor_pb2.FieldDescriptorProto

    def msg(name, fields, options=None):
        m = f.message_type.add(name=name)
        for fname, number, ftype, label, type_name, oneof in fields:
            fd = m.field.add(name=fname, number=number, type=ftype, label=label)
            if type_name:
                fd.type_name = type_name
            if oneof is not None:
                fd.oneof_index = oneof
        return m

    REP, OPT = T.LABEL_REPEATED, T.LABEL_OPTIONAL
    msg("BytesList", [("value", 1, T.TYPE_BYTES, REP, None, None)])
    msg("FloatList", [("value", 1, T.TYPE_FLOAT, REP, None, None)])  # proto3: packed by default
    msg("Int64List", [("value", 1, T.TYPE_INT64, REP, None, None)])
    feature = msg("Feature", [("bytes_list", 1, T.TYPE_MESSAGE, OPT, ".tensorflow.BytesList", 0),
                              ("float_list", 2, T.TYPE_MESSAGE, OPT, ".tensorflow.FloatList", 0),
                              ("int64_list", 3, T.TYPE_MESSAGE, OPT, ".tensorflow.Int64List", 0)])
    feature.oneof_decl.add(name="kind")
    features = msg("Features", [("feature", 1, T.TYPE_MESSAGE, REP, ".tensorflow.Features.FeatureEntry", None)])
    entry = features.nested_type.add(name="FeatureEntry")
    entry.field.add(name="key", number=1, type=T.TYPE_STRING, label=OPT)
    entry.field.add(name="value", number=2, type=T.TYPE_MESSAGE, label=OPT, type_name=".tensorflow.Feature")
    entry.options.map_entry = True
    msg("Example", [("features", 1, T.TYPE_MESSAGE, OPT, ".tensorflow.Features", None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    desc = pool.FindMessageTypeByName("tensorflow.Example")
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(desc)
    return message_factory.MessageFactory(pool).GetPrototype(desc)


def masked_crc(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(data):
    head = struct.pack("<Q", len(data))
    return head + struct.pack("<I", masked_crc(head)) + data + struct.pack("<I", masked_crc(data))


def main():
    Example = example_class()
    rows = []
    blob = b""
    for i in range(5):
        ex = Example()
        feat = ex.features.feature
        image = [float(i) + 0.25 * k for k in range(6)]
        feat["image"].float_list.value.extend(image)
        feat["label"].int64_list.value.append(i - 2)  # negative values too
        words = [("w%d" % k).encode() for k in range(i)]  # 0..4 values: a VarLen feature
        feat["words"].bytes_list.value.extend(words)
        feat["name"].bytes_list.value.append(("example, %d" % i).encode())
        blob += record(ex.SerializeToString())
        rows.append({"image": [struct.unpack("<f", struct.pack("<f", v))[0] for v in image], "label": i - 2,
                     "words": [w.decode() for w in words], "name": "example, %d" % i})
    with open(os.path.join(HERE, "examples.tfrecord"), "wb") as f:
        f.write(blob)
    with open(os.path.join(HERE, "examples.tfrecord.gz"), "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(blob)
    with open(os.path.join(HERE, "examples.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
