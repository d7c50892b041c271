"""Writes tests/golden/sequence_examples.json: a tf.train.Example and a tf.train.SequenceExample serialized
by Python's protobuf runtime (Debian's python3-protobuf, deterministic serialization: map keys sorted) as
hex, with the values they hold. The C++ tests parse these bytes and check that kerascpp's encoders write
the same bytes. Messages are declared by hand (field numbers of tensorflow/core/example/*.proto), so
TensorFlow is not needed. Run with /usr/bin/python3.
"""
import json
import os

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

HERE = os.path.dirname(os.path.abspath(__file__))


def classes():
    f = descriptor_pb2.FileDescriptorProto(name="sequence_example_fixture.proto", package="tensorflow", syntax="proto3")
    T = descriptor_pb2.FieldDescriptorProto
    REP, OPT = T.LABEL_REPEATED, T.LABEL_OPTIONAL

    def msg(name, fields):
        m = f.message_type.add(name=name)
        for fname, number, ftype, label, type_name, oneof in fields:
            fd = m.field.add(name=fname, number=number, type=ftype, label=label)
            if type_name:
                fd.type_name = type_name
            if oneof is not None:
                fd.oneof_index = oneof
        return m

    def map_entry(parent, name, value_type):
        entry = parent.nested_type.add(name=name)
        entry.field.add(name="key", number=1, type=T.TYPE_STRING, label=OPT)
        entry.field.add(name="value", number=2, type=T.TYPE_MESSAGE, label=OPT, type_name=value_type)
        entry.options.map_entry = True

    msg("BytesList", [("value", 1, T.TYPE_BYTES, REP, None, None)])
    msg("FloatList", [("value", 1, T.TYPE_FLOAT, REP, None, None)])
    msg("Int64List", [("value", 1, T.TYPE_INT64, REP, None, None)])
    feature = msg("Feature", [("bytes_list", 1, T.TYPE_MESSAGE, OPT, ".tensorflow.BytesList", 0),
                              ("float_list", 2, T.TYPE_MESSAGE, OPT, ".tensorflow.FloatList", 0),
                              ("int64_list", 3, T.TYPE_MESSAGE, OPT, ".tensorflow.Int64List", 0)])
    feature.oneof_decl.add(name="kind")
    features = msg("Features", [("feature", 1, T.TYPE_MESSAGE, REP, ".tensorflow.Features.FeatureEntry", None)])
    map_entry(features, "FeatureEntry", ".tensorflow.Feature")
    msg("FeatureList", [("feature", 1, T.TYPE_MESSAGE, REP, ".tensorflow.Feature", None)])
    lists = msg("FeatureLists", [("feature_list", 1, T.TYPE_MESSAGE, REP, ".tensorflow.FeatureLists.FeatureListEntry", None)])
    map_entry(lists, "FeatureListEntry", ".tensorflow.FeatureList")
    msg("Example", [("features", 1, T.TYPE_MESSAGE, OPT, ".tensorflow.Features", None)])
    msg("SequenceExample", [("context", 1, T.TYPE_MESSAGE, OPT, ".tensorflow.Features", None),
                            ("feature_lists", 2, T.TYPE_MESSAGE, OPT, ".tensorflow.FeatureLists", None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)

    def cls(name):
        desc = pool.FindMessageTypeByName("tensorflow." + name)
        if hasattr(message_factory, "GetMessageClass"):
            return message_factory.GetMessageClass(desc)
        return message_factory.MessageFactory(pool).GetPrototype(desc)

    return cls("Example"), cls("SequenceExample")


def main():
    Example, SequenceExample = classes()
    ex = Example()
    feat = ex.features.feature
    feat["age"].int64_list.value.extend([29, -3])
    feat["scores"].float_list.value.extend([0.5, 1.25, -2.0, 4.0])
    feat["tags"].bytes_list.value.extend([b"a", b"bc"])
    feat["empty"].float_list.SetInParent()

    seq = SequenceExample()
    seq.context.feature["length"].int64_list.value.append(3)
    seq.context.feature["name"].bytes_list.value.append(b"seq")
    tokens = seq.feature_lists.feature_list["tokens"].feature
    for step in ([1, 2], [3], []):
        tokens.add().int64_list.value.extend(step)
    frames = seq.feature_lists.feature_list["frames"].feature
    for step in ([0.5, 1.5], [2.5, 3.5], [4.5, 5.5]):
        frames.add().float_list.value.extend(step)

    out = {
        "example_hex": ex.SerializeToString(deterministic=True).hex(),
        "example": {"age": [29, -3], "scores": [0.5, 1.25, -2.0, 4.0], "tags": ["a", "bc"], "empty": []},
        "sequence_example_hex": seq.SerializeToString(deterministic=True).hex(),
        "sequence_example": {"context": {"length": [3], "name": ["seq"]},
                             "tokens": [[1, 2], [3], []], "frames": [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]},
    }
    with open(os.path.join(HERE, "sequence_examples.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
