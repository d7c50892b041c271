"""Writes tests/golden/records.tfrecord.zlib and records.tfrecord.gz: TFRecord frames (length, masked
CRC-32C of the length, data, masked CRC-32C of the data) framed here in Python and compressed by Python's
zlib and gzip modules (one ZLIB stream; one GZIP member), as TensorFlow's ZLIB/GZIP TFRecord options write
them. records_compressed.json lists each record's length and masked data CRC, so the C++ test checks its
own framing and compression against these bytes. Run with /usr/bin/python3.
"""
import gzip
import json
import os
import zlib

from make_tfrecord_golden import masked_crc, record as frame  # TFRecord framing with masked CRC32C

HERE = os.path.dirname(os.path.abspath(__file__))


def records():
    # The C++ test builds the same five records (tests/data/tfrecord_compression_test.cpp).
    return [b"", b"a", b"hello tfrecord", bytes(range(256)), bytes((i * 7) % 251 for i in range(100000))]


def main():
    recs = records()
    blob = b"".join(frame(r) for r in recs)
    with open(os.path.join(HERE, "records.tfrecord.zlib"), "wb") as f:
        f.write(zlib.compress(blob, 6))
    with open(os.path.join(HERE, "records.tfrecord.gz"), "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(blob)
    with open(os.path.join(HERE, "records_compressed.json"), "w") as f:
        json.dump({"lengths": [len(r) for r in recs], "masked_crcs": [masked_crc(r) for r in recs],
                   "framed_size": len(blob), "framed_masked_crc": masked_crc(blob)}, f, indent=1)


if __name__ == "__main__":
    main()
