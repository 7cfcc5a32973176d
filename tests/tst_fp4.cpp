// The FP4 reference codecs: every E2M1 code, every rounding boundary and tie, saturation, NaN and infinities, the
// block scales at their limits; and, where the CUDA toolkit is installed, agreement with cuda_fp4.h's and
// cuda_fp8.h's own host conversions over a sweep of float bit patterns.
#include <QtTest>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "core/fp4/fp4codec.h"
#include "kernels/cuda/fp4decode.h"
#include "tests/support/suite.h"

#ifdef PARETOSCOPE_HAVE_CUDA_FP4
#include <cuda_fp4.h>
#include <cuda_fp8.h>
#endif

using namespace paretoscope::fp4;

class TestFp4 : public QObject {
    Q_OBJECT

private slots:
    void everyCodeDecodesAndEncodesBack()
    {
        const float magnitudes[8] = { 0, 0.5f, 1, 1.5f, 2, 3, 4, 6 };
        for (std::uint8_t c = 0; c < 16; ++c) {
            float v = decodeE2M1(c);
            QCOMPARE(std::fabs(v), magnitudes[c & 7]);
            QCOMPARE(std::signbit(v), (c & 8) != 0);
            QCOMPARE(encodeE2M1(v), c); // -0 included: code 8
        }
    }

    void roundingBoundariesAndTies_data()
    {
        QTest::addColumn<float>("x");
        QTest::addColumn<int>("code");
        // midpoints tie to the even code (the odd codes carry the .5 mantissa)
        QTest::newRow("0.25 tie -> 0") << 0.25f << 0;
        QTest::newRow("0.75 tie -> 1.0") << 0.75f << 2;
        QTest::newRow("1.25 tie -> 1.0") << 1.25f << 2;
        QTest::newRow("1.75 tie -> 2") << 1.75f << 4;
        QTest::newRow("2.5 tie -> 2") << 2.5f << 4;
        QTest::newRow("3.5 tie -> 4") << 3.5f << 6;
        QTest::newRow("5 tie -> 4") << 5.0f << 6;
        QTest::newRow("-2.5 tie -> -2") << -2.5f << 0xC;
        // just either side of each midpoint
        const float mids[] = { 0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f };
        const int below[] = { 0, 1, 2, 3, 4, 5, 6 }, above[] = { 1, 2, 3, 4, 5, 6, 7 };
        for (int i = 0; i < 7; ++i) {
            QTest::addRow("below %g", double(mids[i])) << std::nextafter(mids[i], 0.0f) << below[i];
            QTest::addRow("above %g", double(mids[i])) << std::nextafter(mids[i], 10.0f) << above[i];
        }
        QTest::newRow("saturates 6.5") << 6.5f << 7;
        QTest::newRow("saturates 1e30") << 1e30f << 7;
        QTest::newRow("saturates -1e30") << -1e30f << 0xF;
        QTest::newRow("+inf") << std::numeric_limits<float>::infinity() << 7;
        QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << 0xF;
        QTest::newRow("NaN -> +6") << std::numeric_limits<float>::quiet_NaN() << 7;
        QTest::newRow("tiny negative -> -0") << -1e-30f << 8;
        QTest::newRow("denormal") << std::numeric_limits<float>::denorm_min() << 0;
    }
    void roundingBoundariesAndTies()
    {
        QFETCH(float, x);
        QFETCH(int, code);
        QCOMPARE(int(encodeE2M1(x)), code);
    }

    void e4m3AtItsLimits()
    {
        QCOMPARE(decodeE4M3(0x7E), 448.0f); // largest
        QCOMPARE(decodeE4M3(0x01), std::ldexp(1.0f, -9)); // smallest subnormal
        QCOMPARE(decodeE4M3(0x08), std::ldexp(1.0f, -6)); // smallest normal
        QVERIFY(std::isnan(decodeE4M3(0x7F)));
        QCOMPARE(int(encodeE4M3(1000.0f)), 0x7E); // satfinite
        QCOMPARE(int(encodeE4M3(-1000.0f)), 0xFE);
        QCOMPARE(int(encodeE4M3(std::ldexp(1.0f, -10))), 0x00); // half the smallest subnormal: tie to even (0)
        QCOMPARE(int(encodeE4M3(std::ldexp(3.0f, -10))), 0x02); // 1.5 x 2^-9 ties to 2 x 2^-9
        // every code's value encodes back to it
        for (int c = 0; c < 256; ++c) {
            if ((c & 0x7F) == 0x7F)
                continue;
            QCOMPARE(int(encodeE4M3(decodeE4M3(std::uint8_t(c)))), c == 0x80 ? 0x80 : c);
        }
        QCOMPARE(decodeE8M0(127), 1.0f);
        QCOMPARE(decodeE8M0(0), std::ldexp(1.0f, -127));
        QCOMPARE(decodeE8M0(254), std::ldexp(1.0f, 127));
        QVERIFY(std::isnan(decodeE8M0(255)));
    }

    void nvfp4QuantizesAsModelOptimizer()
    {
        // a block holding exactly representable values at the tensor's own scale comes back exactly
        std::vector<float> v(40);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = decodeE2M1(std::uint8_t(i % 16)) * 2.0f;
        Nvfp4Tensor t = quantizeNvfp4(v);
        QCOMPARE(t.count, v.size());
        QCOMPARE(t.packed.size(), std::size_t(20));
        QCOMPARE(t.blockScales.size(), std::size_t(3)); // 16 + 16 + 8 (padded)
        QCOMPARE(t.tensorScale, 12.0f / (6 * 448)); // amax 12
        QCOMPARE(decodeE4M3(t.blockScales[0]), 448.0f); // the block holding the amax gets the largest scale
        std::vector<float> back = dequantizeNvfp4(t);
        for (std::size_t i = 0; i < v.size(); ++i)
            QVERIFY2(std::fabs(back[i] - v[i]) <= 1e-6f * 12,
                qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(back[i]).arg(v[i])));
        // the even element is the low nibble
        QCOMPARE(int(t.packed[0] & 0x0F), 0);
        QCOMPARE(int(t.packed[0] >> 4), 1);
        // a tiny block in a large tensor: its scale stops at 2^-9
        std::vector<float> w(32, 1e-6f);
        w[0] = 1000;
        Nvfp4Tensor u = quantizeNvfp4(w);
        QCOMPARE(decodeE4M3(u.blockScales[1]), std::ldexp(1.0f, -9));
        // an all-zero block's scale is 1; an all-zero tensor's scale is 1
        std::vector<float> z(16, 0.0f);
        Nvfp4Tensor zt = quantizeNvfp4(z);
        QCOMPARE(zt.tensorScale, 1.0f);
        QCOMPARE(decodeE4M3(zt.blockScales[0]), 1.0f);
        QCOMPARE(dequantizeNvfp4(zt), z);
    }

    void nvfp4ErrorIsBoundedOnRandomData()
    {
        // each value within half an E2M1 step of its block's scale (the coarsest step, 2 units near 6, is 1/6 of it)
        std::mt19937 rng(7);
        std::normal_distribution<float> n(0, 3);
        std::vector<float> v(4096);
        for (float& x : v)
            x = n(rng);
        Nvfp4Tensor t = quantizeNvfp4(v);
        std::vector<float> back = dequantizeNvfp4(t);
        for (std::size_t i = 0; i < v.size(); ++i) {
            float scale = decodeE4M3(t.blockScales[i / 16]) * t.tensorScale;
            QVERIFY(std::fabs(back[i] - v[i]) <= scale * 1.0f + 1e-6f);
        }
    }

    void mxfp4SharesAPowerOfTwo()
    {
        std::vector<float> v(64);
        for (std::size_t i = 0; i < 32; ++i)
            v[i] = decodeE2M1(std::uint8_t(i % 16)); // max 6: exponent floor(log2 6) - 2 = 0
        for (std::size_t i = 32; i < 64; ++i)
            v[i] = decodeE2M1(std::uint8_t(i % 16)) * 1024.0f; // exponent 10
        Mxfp4Tensor t = quantizeMxfp4(v);
        QCOMPARE(int(t.blockScales[0]), 127);
        QCOMPARE(int(t.blockScales[1]), 137);
        QCOMPARE(dequantizeMxfp4(t), v); // exact
        // scales at their limits: the exponent is clamped to [-127, 127]; an all-zero block uses -2
        std::vector<float> tiny(32, std::numeric_limits<float>::denorm_min());
        QCOMPARE(int(quantizeMxfp4(tiny).blockScales[0]), 0);
        std::vector<float> huge(32, std::numeric_limits<float>::max());
        Mxfp4Tensor h = quantizeMxfp4(huge);
        QCOMPARE(int(h.blockScales[0]), 127 + 125); // floor(log2 max) = 127
        QCOMPARE(dequantizeMxfp4(h)[0], 6.0f * std::ldexp(1.0f, 125)); // saturated at 6 x scale
        std::vector<float> zero(32, 0.0f);
        QCOMPARE(int(quantizeMxfp4(zero).blockScales[0]), 125);
        // non-finite values do not set the scale; they saturate
        std::vector<float> odd { 1.0f, std::numeric_limits<float>::infinity(),
            std::numeric_limits<float>::quiet_NaN() };
        Mxfp4Tensor o = quantizeMxfp4(odd);
        QCOMPARE(int(o.blockScales[0]), 125);
        QCOMPARE(dequantizeMxfp4(o)[1], 6.0f * 0.25f);
    }

    // The CUDA dequantize kernels' decode (kernels/cuda/fp4decode.h, bit arithmetic with selects) against the
    // reference codec: every code, every scale code, bit for bit.
    void branchFreeDecodeMatchesReference()
    {
        namespace dc = paretoscope::cuda::decode;
        for (unsigned c = 0; c < 16; ++c)
            QCOMPARE(dc::e2m1Bits(c), std::bit_cast<std::uint32_t>(decodeE2M1(std::uint8_t(c))));
        // bits above the nibble are ignored, as the kernels shift whole words
        QCOMPARE(dc::e2m1Bits(0xABCDu), dc::e2m1Bits(0xDu));
        for (unsigned c = 0; c < 256; ++c) {
            const float e4 = decodeE4M3(std::uint8_t(c)), e8 = decodeE8M0(std::uint8_t(c));
            if (std::isnan(e4))
                QVERIFY(std::isnan(dc::asFloat(dc::e4m3Bits(c))));
            else
                QCOMPARE(dc::e4m3Bits(c), std::bit_cast<std::uint32_t>(e4));
            if (std::isnan(e8))
                QCOMPARE(dc::e8m0Bits(c), 0x7FC00000u); // NaN, not infinity
            else
                QCOMPARE(dc::e8m0Bits(c), std::bit_cast<std::uint32_t>(e8));
        }
    }

    // Whole values: NVFP4 over every code x every E4M3 block scale x tensor scales from amax/(6 x 448) of assorted
    // amax, through core's dequantizeNvfp4 (the same (q x bs) x ts order, so bit-exact); MXFP4 over every code x every
    // E8M0 scale, whose BF16 is the float's upper half exactly (lower half zero: no rounding step needed).
    void branchFreeValuesMatchReference()
    {
        namespace dc = paretoscope::cuda::decode;
        std::vector<float> tensorScales = { 1.0f };
        std::mt19937 rng(16);
        std::uniform_real_distribution<float> logAmax(-30.0f, 30.0f);
        for (float amax : { 1.0f, 6.0f * 448.0f, 3.7f, 1e-3f, 1e4f, 65504.0f })
            tensorScales.push_back(amax / (6.0f * 448.0f));
        for (int i = 0; i < 200; ++i)
            tensorScales.push_back(std::exp2(logAmax(rng)) / (6.0f * 448.0f));
        Nvfp4Tensor t;
        t.count = std::size_t { 256 } * 16;
        t.blockScales.resize(256);
        t.packed.resize(t.count / 2);
        for (unsigned b = 0; b < 256; ++b) {
            t.blockScales[b] = std::uint8_t(b);
            for (unsigned j = 0; j < 8; ++j)
                t.packed[b * 8 + j] = std::uint8_t((2 * j) | ((2 * j + 1) << 4)); // codes 0..15 in order
        }
        std::size_t checked = 0;
        for (float ts : tensorScales) {
            t.tensorScale = ts;
            const std::vector<float> want = dequantizeNvfp4(t);
            for (std::size_t i = 0; i < t.count; ++i) {
                const float bs = dc::asFloat(dc::e4m3Bits(t.blockScales[i / 16]));
                const float got = dc::nvfp4Value(unsigned(i % 16), bs, ts);
                if (std::isnan(want[i]) ? !std::isnan(got) : dc::asBits(got) != std::bit_cast<std::uint32_t>(want[i]))
                    QFAIL(qPrintable(QStringLiteral("NVFP4 code %1 scale 0x%2 ts %3: %4, want %5")
                                         .arg(i % 16)
                                         .arg(i / 16, 0, 16)
                                         .arg(double(ts))
                                         .arg(double(got))
                                         .arg(double(want[i]))));
                ++checked;
            }
        }
        Mxfp4Tensor m;
        m.count = std::size_t { 256 } * 32;
        m.blockScales.resize(256);
        m.packed.resize(m.count / 2);
        for (unsigned b = 0; b < 256; ++b) {
            m.blockScales[b] = std::uint8_t(b);
            for (unsigned j = 0; j < 16; ++j)
                m.packed[b * 16 + j] = std::uint8_t(((2 * j) & 15) | (((2 * j + 1) & 15) << 4));
        }
        const std::vector<float> mwant = dequantizeMxfp4(m);
        for (std::size_t i = 0; i < m.count; ++i) {
            const std::uint32_t bits
                = dc::mxfp4Bits(unsigned(i % 16), dc::asFloat(dc::e8m0Bits(m.blockScales[i / 32])));
            if (std::isnan(mwant[i])) {
                QVERIFY(std::isnan(dc::asFloat(bits)));
            } else {
                QCOMPARE(bits, std::bit_cast<std::uint32_t>(mwant[i]));
                QCOMPARE(bits & 0xFFFFu, 0u);
            }
            ++checked;
        }
        qInfo("%zu values bit-exact", checked);
    }

#ifdef PARETOSCOPE_HAVE_CUDA_FP4
    void agreesWithCudaHostConversions()
    {
        // every 997th float bit pattern (about 4.3 million), plus the specials
        std::vector<float> xs = { 0.0f, -0.0f, std::numeric_limits<float>::infinity(),
            -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(), 0.25f, 0.75f, 1.25f,
            1.75f, 2.5f, 3.5f, 5.0f, 448.0f, 464.0f, 480.0f };
        for (std::uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 997)
            xs.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
        std::size_t checked = 0;
        for (float x : xs) {
            unsigned ours = encodeE2M1(x);
            unsigned theirs = __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
            if (ours != theirs)
                QFAIL(qPrintable(QStringLiteral("E2M1 of %1 (0x%2): ours 0x%3, cuda_fp4.h 0x%4")
                                     .arg(double(x))
                                     .arg(std::bit_cast<std::uint32_t>(x), 8, 16, QLatin1Char('0'))
                                     .arg(ours, 0, 16)
                                     .arg(theirs, 0, 16)));
            if (!std::isnan(x)) { // cuda_fp8.h's NaN pattern differs in sign handling; NaN is checked above
                unsigned o8 = encodeE4M3(x), t8 = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
                if (o8 != t8)
                    QFAIL(qPrintable(QStringLiteral("E4M3 of %1: ours 0x%2, cuda_fp8.h 0x%3")
                                         .arg(double(x))
                                         .arg(o8, 0, 16)
                                         .arg(t8, 0, 16)));
            }
            ++checked;
        }
        // and the decode of every code
        for (unsigned c = 0; c < 16; ++c) {
            __half_raw h = __nv_cvt_fp4_to_halfraw(__nv_fp4_storage_t(c), __NV_E2M1);
            float theirs = float(__half(h));
            QCOMPARE(decodeE2M1(std::uint8_t(c)), theirs);
        }
        qInfo("%zu values agree with cuda_fp4.h and cuda_fp8.h", checked);
    }
#endif
};

PARETOSCOPE_GUILESS_SUITE(TestFp4)
#include "tst_fp4.moc"
