#!/usr/bin/env python3
"""Writes the references of the real-model corpus: per model file, deterministic inputs (`NAME.input.npy`,
or `NAME.input0.npy`, `NAME.input1.npy`... for several inputs) and the outputs of the independent reader
tools/read_keras_h5.py (h5py + NumPy, no kerascpp) on them (`NAME.expected.npy` / `NAME.expected0.npy`...),
then manifest.json, which the C++ test tests/tools/real_models_test.cpp walks.

  make_references.py [EXTRA_DIR]

Files listed in README.md's table live in this folder (committed) or, without a licence that allows
committing them, in EXTRA_DIR (default: $KERAS_REAL_MODELS_EXTRA); their references are written beside them.
Inputs: 3 samples; an input read first by an Embedding gets integer ids below its input_dim, others uniform
values in [0, 1); an unknown time dimension becomes 6 steps. The seed is the CRC-32 of the file name.
Run with /usr/bin/python3 (Debian's python3-h5py and python3-numpy).
"""
import importlib.util
import json
import os
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("reader", os.path.join(HERE, "..", "..", "tools", "read_keras_h5.py"))
reader = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reader)

# file, where it lives, what else the test checks. The provenance (repository, commit, path, licence) is in
# README.md. `accuracy`: the test accuracy its author's notebook printed, reproduced on Fashion-MNIST.
CORPUS = [
    ("keras2.0.5_fer_mini_xception.hdf5", "committed", {}),
    ("keras2.0.5_kdef_tiny_xception.hdf5", "committed", {}),
    ("keras2.0.5_gender_mini_xception.hdf5", "committed", {}),
    ("keras2.4_tiny_resnet.h5", "committed", {}),
    ("keras2.4_tiny_vww_mobilenet.h5", "committed", {}),
    ("tf2.14_tiny_ds_cnn_kws.h5", "committed", {}),
    ("keras3.8_fashion_cnn.h5", "committed", {"accuracy": {"dataset": "fashion-mnist", "value": 0.9067}}),
    ("keras3.8_fashion_cnn.keras", "committed", {"accuracy": {"dataset": "fashion-mnist", "value": 0.9067}}),
    ("tf2.15_nlf_mlp.keras", "committed", {}),
    ("keras3.10dev_sentiment_embedding_gap1d.keras", "committed", {}),
    ("keras3.5_captcha_cnn_bn.keras", "committed", {}),
    ("keras3.2_ner_embedding_lstm.keras", "committed", {}),
    ("keras2.2.0_chatbot_s2s.h5", "extra", {}),
    ("keras2.2.0_chatbot_s2s_enc.h5", "extra", {}),
    ("keras2.2.0_chatbot_s2s_dec.h5", "extra", {}),
    ("keras2.2.4_katakana_seq2seq.h5", "extra", {}),
    ("keras2.2.4_mt_seq2seq.h5", "extra", {}),
    ("keras2.2.5_lstm_seq2seq.h5", "extra", {}),
    ("keras2.4_tiny_ad01_autoencoder.h5", "extra", {}),
    ("tf2.10_bilstm_hdf5.keras", "extra", {}),
    ("tf2.11_sentiment_gap1d_hdf5.keras", "extra", {}),
    ("tf2.12_bilstm_hdf5.keras", "extra", {}),
    ("tf2.15_spam_mlp.h5", "extra", {}),
    ("tf2.15_spam_mlp.keras", "extra", {}),
    ("keras3.0.5_stock_bilstm.keras", "extra", {}),
    ("keras3.3_iot_bilstm.keras", "extra", {}),
    ("keras3.3_text_embedding_gap1d.keras", "extra", {}),
    ("keras3.5_fashion_mlp.keras", "extra", {}),
    ("keras3.6_recommender_concat_bn.keras", "extra", {}),
    ("keras3.6_recommender_subclassed.keras", "extra",
     {"expect_error": "RecommenderNet"}),  # a subclassed model: no config to rebuild it from
    ("keras3.8_bilstm.keras", "extra", {}),
    ("keras3.9_cc_gru.h5", "extra", {}),
    ("keras3.9_cc_gru.keras", "extra", {}),
    ("keras3.10_ecg_conv1d.h5", "extra", {}),
    ("keras3.10_fashion_cnn.h5", "extra", {}),
    ("keras3.10_fashion_cnn.keras", "extra", {}),
    ("keras3.10_recommender_concat.h5", "extra", {}),
    ("keras3.12_btc_gru.keras", "extra", {}),
    ("keras3.12_btc_lstm.keras", "extra", {}),
    ("keras3.13_recommender_dot.h5", "extra", {}),
    ("keras3.13_recommender_dot.keras", "extra", {}),
    ("keras3.13_spam_gru.keras", "extra", {}),
    ("keras3.8_sentiment_embedding_gap1d.keras", "extra", {}),
    ("keras3.14_sentiment_lstm.keras", "extra", {}),
    ("keras3.14_sentiment_gmp1d.keras", "extra", {}),
    ("keras3.3_fake_news_simplernn.keras", "extra", {}),
    ("keras3.2_ecg_conv1d_lstm.h5", "extra", {}),
    ("keras3.2_ecg_conv1d_lstm.keras", "extra", {}),
    ("keras3.8_temp_simplernn.keras", "extra", {}),
    ("tf2.15_ecg_conv1d_gap1d.keras", "extra", {}),
    ("tf2.15_ecg_transformer_tfoplambda.keras", "extra", {}),  # MultiHeadAttention, TFOpLambda
]

BATCH = 3
TOLERANCE = 1e-5  # |ours - reference| <= tol + tol * |reference|


def make_inputs(model, name):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs = []
    for shape, consumer in zip(model.input_shapes(), model.consumers_of_inputs()):
        shape = [BATCH] + [6 if d is None else d for d in shape]
        if consumer is not None and consumer["class_name"] == "Embedding":
            x = rng.integers(0, consumer["config"]["input_dim"], size=shape).astype(np.float32)
        else:
            x = rng.random(shape, dtype=np.float32)
        inputs.append(x)
    return inputs


def numbered(name, what, count):
    return [f"{name}.{what}.npy"] if count == 1 else [f"{name}.{what}{i}.npy" for i in range(count)]


def main():
    extra = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KERAS_REAL_MODELS_EXTRA", "")
    entries = []
    for name, location, checks in CORPUS:
        folder = HERE if location == "committed" else extra
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            magic = f.read(4)
        entry = {"file": name, "location": location,
                 "format": "keras" if magic == b"PK\x03\x04" else "h5"}
        entry.update(checks)
        if "expect_error" not in checks:
            model = reader.Model(path)
            entry["keras_version"] = model.version
            inputs = make_inputs(model, name)
            outputs = model.predict(inputs)
            entry["inputs"] = numbered(name, "input", len(inputs))
            entry["expected"] = numbered(name, "expected", len(outputs))
            for file, array in zip(entry["inputs"], inputs):
                np.save(os.path.join(folder, file), array)
            for file, array in zip(entry["expected"], outputs):
                np.save(os.path.join(folder, file), array.astype(np.float32))
            entry["tolerance"] = TOLERANCE
            if "accuracy" in checks:
                x = reader.read_idx("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz") / 255.0
                y = reader.read_idx("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz")
                x = x.reshape([len(x)] + list(model.input_shapes()[0]))
                got = np.mean(reader.predict_batched(model, [x])[0].argmax(axis=-1) == y)
                if round(got, 4) != checks["accuracy"]["value"]:
                    raise SystemExit(f"{name}: the reader's accuracy {got:.4f} is not the recorded "
                                     f"{checks['accuracy']['value']}")
        entries.append(entry)
        print(f"{name}: {entry.get('keras_version', '')} {entry['format']} "
              f"{len(entry.get('inputs', []))} in, {len(entry.get('expected', []))} out")
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump({"batch": BATCH, "models": entries}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
