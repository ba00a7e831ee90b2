// The one gzip codec: whole buffers round trip, and the streaming inflater gives the same
// bytes however its input and output are cut, reads concatenated members as one stream,
// tells a stream cut inside a member from one that ended cleanly, and names corrupt data.

#include "base/gzip_codec.h"

#include <QTest>

#include <algorithm>
#include <string>

namespace {

// Pseudo-random text that compresses but not to nothing.
std::string sampleText(std::size_t n) {
    std::string s;
    std::uint32_t x = 12345;
    while (s.size() < n) {
        x = x * 1103515245u + 12345u;
        s += "{\"name\": \"kernel_" + std::to_string((x >> 16) % 977) + "\", \"ts\": " + std::to_string(x % 100000) + "},\n";
    }
    s.resize(n);
    return s;
}

struct Streamed {
    std::string out;
    bool ok = true;
    bool atEnd = false;
    std::string error;
};

// Feeds `packed` in pieces of inStep bytes and drains pieces of outStep bytes.
Streamed inflateInPieces(const std::string& packed, std::size_t inStep, std::size_t outStep) {
    Streamed r;
    npu::GzipInflater z;
    std::string buf(outStep, '\0');
    for (std::size_t at = 0; at < packed.size(); at += inStep) {
        z.setInput(packed.data() + at, std::min(inStep, packed.size() - at));
        while (z.inputLeft() > 0) {
            auto got = z.decompress(buf.data(), buf.size());
            if (!got) {
                r.ok = false;
                r.error = got.message();
                return r;
            }
            r.out.append(buf.data(), *got);
        }
    }
    // Output still held by zlib once the input is used up.
    for (;;) {
        auto got = z.decompress(buf.data(), buf.size());
        if (!got || *got == 0) break;
        r.out.append(buf.data(), *got);
    }
    r.atEnd = z.atMemberEnd();
    return r;
}

}  // namespace

class TestGzipCodec : public QObject {
    Q_OBJECT
private slots:
    void wholeBufferRoundTrip() {
        const std::string text = sampleText(300000);
        auto packed = npu::gzipCompress(text);
        QVERIFY(packed);
        QVERIFY(packed->size() < text.size());
        auto back = npu::gzipDecompress(*packed);
        QVERIFY(back);
        QCOMPARE(*back, text);
    }

    void streamingMatchesWholeBuffer_data() {
        QTest::addColumn<int>("inStep");
        QTest::addColumn<int>("outStep");
        QTest::newRow("one byte in") << 1 << 4096;
        QTest::newRow("one byte out") << 65536 << 1;
        QTest::newRow("odd sizes") << 7919 << 1237;
        QTest::newRow("all at once") << (1 << 22) << (1 << 22);
    }
    void streamingMatchesWholeBuffer() {
        QFETCH(int, inStep);
        QFETCH(int, outStep);
        const std::string text = sampleText(inStep == 1 || outStep == 1 ? 20000 : 300000);
        const std::string packed = *npu::gzipCompress(text);
        const Streamed r = inflateInPieces(packed, std::size_t(inStep), std::size_t(outStep));
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.atEnd);
        QCOMPARE(r.out.size(), text.size());
        QVERIFY(r.out == text);
    }

    void concatenatedMembersAreOneStream() {
        const std::string a = sampleText(5000), b = sampleText(7000);
        const std::string packed = *npu::gzipCompress(a) + *npu::gzipCompress(b);
        const Streamed r = inflateInPieces(packed, 1000, 512);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.atEnd);
        QVERIFY(r.out == a + b);
    }

    void truncatedStreamIsNotAtMemberEnd() {
        const std::string text = sampleText(50000);
        const std::string packed = *npu::gzipCompress(text);
        const Streamed r = inflateInPieces(packed.substr(0, packed.size() / 2), 4096, 4096);
        QVERIFY2(r.ok, r.error.c_str());  // nothing wrong with the bytes there are
        QVERIFY(!r.atEnd);
        QVERIFY(r.out.size() < text.size());
        QVERIFY(text.starts_with(r.out));
    }

    void corruptDataIsAnError() {
        std::string packed = *npu::gzipCompress(sampleText(50000));
        for (std::size_t i = 20; i < 60; ++i) packed[i] = char(0xff);
        const Streamed r = inflateInPieces(packed, 4096, 4096);
        QVERIFY(!r.ok);
        QVERIFY(!r.error.empty());
    }
};

QTEST_GUILESS_MAIN(TestGzipCodec)
#include "test_gzip_codec.moc"
