// The arithmetic of the HIP kernels (kernels/hip/hipdevicemath.h), run on the CPU: no AMD GPU is at hand where this
// project is built and tested, so what the kernels compute is checked here. E2M1 and E8M0 decode against the
// reference codec, BF16 rounding against nearest-even chosen by distance, a whole MXFP4 dequantize against the
// reference, and the BF16 GEMM's staging and matrix-core index maps composed into a full product, checked exactly.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/fp4/fp4codec.h"
#include "kernels/hip/hipdevicemath.h"
#include "kernels/probecheck.h"
#include "tests/support/suite.h"

using namespace paretoscope;
namespace hm = paretoscope::hip::math;

namespace {

float bf16Value(std::uint16_t bits)
{
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
}

// Nearest-even BF16 by comparing distances to the two neighbours, in double: independent of the bit trick.
std::uint16_t bf16ByDistance(float x)
{
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    const std::uint16_t down = static_cast<std::uint16_t>(u >> 16);
    if ((u & 0xFFFF) == 0)
        return down;
    const std::uint16_t up = static_cast<std::uint16_t>(down + 1); // next magnitude away from zero
    const double dd = std::fabs(double(x) - double(bf16Value(down)));
    // IEEE rounding treats the step past the largest finite value as 2^128: beyond its midpoint, x becomes infinity
    const double upValue = (up & 0x7FFF) == 0x7F80 ? std::copysign(std::ldexp(1.0, 128), double(x)) : bf16Value(up);
    const double du = std::fabs(double(x) - upValue);
    if (dd < du)
        return down;
    if (du < dd)
        return up;
    return (down & 1) ? up : down;
}

} // namespace

class TestHipMath : public QObject {
    Q_OBJECT

private slots:
    void decodesAsTheReference()
    {
        for (unsigned c = 0; c < 16; ++c) {
            const float got = hm::decodeE2M1(c), want = fp4::decodeE2M1(static_cast<std::uint8_t>(c));
            QCOMPARE(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want)); // -0 included
        }
        for (unsigned c = 0; c < 256; ++c) {
            const float got = hm::decodeE8M0(c), want = fp4::decodeE8M0(static_cast<std::uint8_t>(c));
            if (std::isnan(want))
                QVERIFY(std::isnan(got));
            else
                QCOMPARE(got, want);
        }
        QCOMPARE(hm::decodeE8M0(0), std::ldexp(1.0f, -127));
        QCOMPARE(hm::decodeE8M0(254), std::ldexp(1.0f, 127));
    }

    void bf16RoundsToNearestEven()
    {
        // ties both ways, the largest finite values, subnormals, infinities, and a sweep of random bit patterns
        std::vector<std::uint32_t> patterns = { 0x3F808000u, 0x3F818000u, 0x3F80FFFFu, 0x7F7FFFFFu, 0x7F7F8000u,
            0x00008000u, 0x00018000u, 0x80008000u, 0x7F800000u, 0xFF800000u, 0, 0x80000000u };
        std::mt19937 rng(3);
        for (int i = 0; i < 200000; ++i)
            patterns.push_back(rng());
        for (std::uint32_t p : patterns) {
            const float x = std::bit_cast<float>(p);
            if (std::isnan(x)) {
                QVERIFY(std::isnan(bf16Value(hm::bf16Bits(x))));
                continue;
            }
            QCOMPARE(hm::bf16Bits(x), bf16ByDistance(x));
        }
        QCOMPARE(hm::bf16Bits(std::bit_cast<float>(0x7F7FFFFFu)), std::uint16_t(0x7F80)); // rounds up to infinity
    }

    void mxfp4BlockDequantizesAsTheReference()
    {
        std::mt19937 rng(5);
        std::normal_distribution<float> d(0, 3);
        std::vector<float> x(std::size_t { 32 } * 4096);
        for (float& v : x)
            v = d(rng);
        x[7] = 1e30f; // a block with a large scale
        for (int i = 64; i < 96; ++i)
            x[i] = 0; // an all-zero block
        fp4::Mxfp4Tensor t = fp4::quantizeMxfp4(x);
        const std::vector<float> want = fp4::dequantizeMxfp4(t);
        for (std::size_t b = 0; b < x.size() / 32; ++b) {
            unsigned words[4], out[16];
            std::memcpy(words, t.packed.data() + 16 * b, 16);
            hm::dequantizeMxfp4Block(words, t.blockScales[b], out);
            for (int i = 0; i < 32; ++i) {
                const std::uint16_t got = static_cast<std::uint16_t>(out[i / 2] >> (16 * (i % 2)));
                QCOMPARE(got, hm::bf16Bits(want[32 * b + i]));
            }
        }
    }

    // The unrolled, branch-free block decode over every code and every scale code, bit for bit against the
    // reference's value rounded to BF16 by distance (independent of the upper-half shortcut); 0xFF gives NaN.
    void mxfp4EveryCodeAndScaleBitExact()
    {
        unsigned words[4];
        for (int w = 0; w < 4; ++w)
            words[w] = 0x76543210u + 0x88888888u * unsigned(w % 2); // codes 0..7, then 8..15, twice
        for (unsigned scale = 0; scale < 256; ++scale) {
            unsigned out[16];
            hm::dequantizeMxfp4Block(words, scale, out);
            for (int i = 0; i < 32; ++i) {
                const unsigned code = (words[i / 8] >> (4 * (i % 8))) & 0xF;
                const std::uint16_t got = static_cast<std::uint16_t>(out[i / 2] >> (16 * (i % 2)));
                const float want = fp4::decodeE2M1(std::uint8_t(code)) * fp4::decodeE8M0(std::uint8_t(scale));
                if (std::isnan(want))
                    QVERIFY(std::isnan(bf16Value(got)));
                else if (got != bf16ByDistance(want))
                    QFAIL(qPrintable(QStringLiteral("code %1 scale %2: 0x%3, want 0x%4")
                                         .arg(code)
                                         .arg(scale)
                                         .arg(got, 4, 16, QLatin1Char('0'))
                                         .arg(bf16ByDistance(want), 4, 16, QLatin1Char('0'))));
            }
        }
    }

    // The FP8 GEMM check's tolerance against a model of Hopper's FP8 accumulator: each partial sum truncated to 14
    // significant bits, the result rounded to BF16, on the probe's 256^3 product of E4M3 inputs. It passes with
    // mag x 2^-12 (kFp8Accumulation); an element moved by twice its tolerance fails.
    void fp8ToleranceCoversA14BitAccumulator()
    {
        const int m = 256, n = 256, k = 256;
        auto e4m3 = [](std::size_t count, unsigned seed) {
            std::vector<float> x = probe::randomNormal(count, seed, 1.0f);
            std::vector<double> v(count);
            for (std::size_t i = 0; i < count; ++i)
                v[i] = fp4::decodeE4M3(fp4::encodeE4M3(x[i]));
            return v;
        };
        const std::vector<double> a = e4m3(std::size_t(m) * k, 11), b = e4m3(std::size_t(n) * k, 12);
        auto truncate14 = [](double s) {
            int e = 0;
            const double f = std::frexp(s, &e);
            return std::ldexp(std::trunc(std::ldexp(f, 14)), e - 14);
        };
        std::vector<std::uint16_t> d(std::size_t(m) * n);
        std::vector<double> mags(d.size());
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double sum = 0, mag = 0;
                for (int q = 0; q < k; ++q) {
                    const double p = a[std::size_t(i) * k + q] * b[std::size_t(j) * k + q];
                    sum = truncate14(sum + p);
                    mag += std::fabs(p);
                }
                d[std::size_t(j) * m + i] = hm::bf16Bits(float(sum));
                mags[std::size_t(j) * m + i] = mag;
            }
        const auto fp8 = probe::checkBf16Product(a, b, d, m, n, k, 1.0, probe::kFp8Accumulation);
        const auto fp32 = probe::checkBf16Product(a, b, d, m, n, k, 1.0, probe::kFp32Accumulation);
        qInfo("14-bit accumulator: worst error %.3f of the FP8 tolerance, %.3f of the FP32 one",
            fp8.find("worst_error_over_tolerance")->number(), fp32.find("worst_error_over_tolerance")->number());
        QVERIFY(fp8.find("pass")->flag());
        QCOMPARE(fp8.find("accumulation_tolerance")->number(), std::ldexp(1.0, -12));
        // one element off by twice its whole allowance fails
        const float v77 = bf16Value(d[77]);
        const float off = v77 + float(2 * (std::fabs(v77) / 128 + mags[77] * probe::kFp8Accumulation));
        d[77] = hm::bf16Bits(off);
        QVERIFY(!probe::checkBf16Product(a, b, d, m, n, k, 1.0, probe::kFp8Accumulation).find("pass")->flag());
    }

    // The probe's JSON writer (kernels/probejson.h, no nlohmann so gpu-check.sh builds with nvcc alone), read back by
    // Qt's parser: nesting, order, numbers, a failed section, escapes, NaN as null.
    void probeJsonReadsBack()
    {
        probe::Json j;
        j["device"] = { { "name", "GPU \"x\"\n" }, { "memory_bytes", std::size_t(150) << 30 } };
        j["bandwidth"]["copy_bytes_per_s"] = 4.25e12;
        j["gemm"]["fp8"] = { { "error", "cublasLt: no algorithm" } };
        j["gemm"]["bf16"] = { { "pass", true }, { "worst_error_over_tolerance", std::nan("") } };
        probe::Json more = { { "flops_per_s", 7.5e14 }, { "m_n_k", 8192 } };
        j["gemm"]["bf16"].update(more);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(j.dump(2)), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o[QStringLiteral("device")][QStringLiteral("name")].toString(), QStringLiteral("GPU \"x\"\n"));
        QCOMPARE(
            o[QStringLiteral("device")][QStringLiteral("memory_bytes")].toDouble(), double(std::size_t(150) << 30));
        QCOMPARE(o[QStringLiteral("bandwidth")][QStringLiteral("copy_bytes_per_s")].toDouble(), 4.25e12);
        QCOMPARE(o[QStringLiteral("gemm")][QStringLiteral("fp8")][QStringLiteral("error")].toString(),
            QStringLiteral("cublasLt: no algorithm"));
        QVERIFY(
            o[QStringLiteral("gemm")][QStringLiteral("bf16")][QStringLiteral("worst_error_over_tolerance")].isNull());
        QCOMPARE(o[QStringLiteral("gemm")][QStringLiteral("bf16")][QStringLiteral("flops_per_s")].toDouble(), 7.5e14);
        QCOMPARE(o[QStringLiteral("gemm")][QStringLiteral("bf16")][QStringLiteral("m_n_k")].toInt(), 8192);
        QCOMPARE(o.keys().size(), 3);
        QVERIFY(j.dump(2).find("\"device\"") < j.dump(2).find("\"gemm\"")); // insertion order
    }

    // cuBLASLt's tiled VEC16 scale layout as the FP4 GEMM check writes it: every (row, 16-block) of a padded
    // matrix has its own byte, the buffer is exactly filled, and the tiles sit where the documented formula puts them.
    void vec16ScaleLayoutIsABijection_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("k");
        QTest::newRow("256 x 256 (the check)") << 256 << 256;
        QTest::newRow("300 x 200 (padded)") << 300 << 200;
        QTest::newRow("128 x 64 (one tile column)") << 128 << 64;
    }
    void vec16ScaleLayoutIsABijection()
    {
        QFETCH(int, rows);
        QFETCH(int, k);
        const std::size_t bytes = probe::vec16ScaleBytes(rows, k);
        const std::size_t paddedRows = std::size_t((rows + 127) / 128) * 128, cols = std::size_t((k + 63) / 64) * 4;
        QCOMPARE(bytes, paddedRows * cols);
        std::vector<int> seen(bytes, 0);
        for (std::size_t r = 0; r < paddedRows; ++r)
            for (std::size_t c = 0; c < cols; ++c) {
                const std::size_t at = probe::vec16ScaleOffset(r, c, k);
                QVERIFY(at < bytes);
                ++seen[at];
            }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        // within a 512-byte tile: row r % 32 at 16 r, the 32-row group at 4 g, the column at c % 4
        QCOMPARE(probe::vec16ScaleOffset(1, 0, k), std::size_t(16));
        QCOMPARE(probe::vec16ScaleOffset(32, 0, k), std::size_t(4));
        QCOMPARE(probe::vec16ScaleOffset(0, 3, k), std::size_t(3));
        if (cols > 4)
            QCOMPARE(probe::vec16ScaleOffset(0, 4, k), std::size_t(512));
        if (paddedRows > 128) // the next 128 rows follow all the tiles of the first
            QCOMPARE(probe::vec16ScaleOffset(128, 0, k), cols / 4 * 512);
    }

    void gemmIndexMapsComposeIntoTheProduct()
    {
        // Small integers: every product and sum is exact in float, so the composed result must equal the naive one.
        const int m = 256, n = 384, k = 96;
        std::mt19937 rng(9);
        std::uniform_int_distribution<int> small(-4, 4);
        std::vector<float> a(std::size_t(m) * k), b(std::size_t(n) * k); // A is M x K, B is N x K (K contiguous)
        for (float& v : a)
            v = float(small(rng));
        for (float& v : b)
            v = float(small(rng));
        std::vector<float> d(std::size_t(m) * n, std::nanf("")); // column-major, written once each
        std::vector<int> writes(std::size_t(m) * n, 0);

        const int tile = hm::kGemmTile, tileK = hm::kGemmTileK;
        for (int tileM = 0; tileM < m; tileM += tile)
            for (int tileN = 0; tileN < n; tileN += tile) {
                // per wave and lane: 2 x 2 accumulators of 16 values, as the kernel keeps them
                std::vector<float> acc(std::size_t { 4 } * 64 * 2 * 2 * 16, 0.0f);
                auto at = [&](int wave, int lane, int i, int j, int v) -> float& {
                    return acc[((((wave * 64 + lane) * 2 + i) * 2 + j) * 16) + v];
                };
                for (int k0 = 0; k0 < k; k0 += tileK) {
                    // staging: every element of both slices copied exactly once
                    const std::size_t slice = std::size_t(tile) * std::size_t(tileK);
                    std::vector<float> as(slice, std::nanf("")), bs(slice, std::nanf(""));
                    std::vector<int> staged(slice, 0);
                    for (int t = 0; t < hm::kGemmThreads; ++t)
                        for (int pass = 0; pass < 2; ++pass)
                            for (int e = 0; e < 8; ++e) {
                                const int row = hm::stageRow(t, pass), col = hm::stageCol(t) + e;
                                as[row * tileK + col] = a[std::size_t(tileM + row) * k + k0 + col];
                                bs[row * tileK + col] = b[std::size_t(tileN + row) * k + k0 + col];
                                ++staged[row * tileK + col];
                            }
                    for (int c : staged)
                        QCOMPARE(c, 1);
                    for (int wave = 0; wave < 4; ++wave)
                        for (int kk = 0; kk < tileK; kk += 8)
                            for (int i = 0; i < 2; ++i)
                                for (int j = 0; j < 2; ++j) {
                                    // the operands each lane loads, by the kernel's maps
                                    float fa[64][4], fb[64][4];
                                    for (int lane = 0; lane < 64; ++lane)
                                        for (int q = 0; q < 4; ++q) {
                                            const int kq = kk + hm::mfmaOperandK(lane) + q;
                                            fa[lane][q]
                                                = as[(hm::waveRow(wave) + i * 32 + hm::mfmaOperandRow(lane)) * tileK
                                                    + kq];
                                            fb[lane][q]
                                                = bs[(hm::waveCol(wave) + j * 32 + hm::mfmaOperandRow(lane)) * tileK
                                                    + kq];
                                        }
                                    // the instruction, as AMD documents it (written out here, not taken from
                                    // the header): A[r][c] is element c % 4 of lane r + 32 (c / 4); B[c][s] is
                                    // element c % 4 of lane s + 32 (c / 4); D[r][s] lands in lane s + 32 ((r / 4)
                                    // % 2), value 4 (r / 8) + r % 4
                                    for (int lane = 0; lane < 64; ++lane)
                                        for (int v = 0; v < 16; ++v) {
                                            const int r = 8 * (v / 4) + 4 * (lane / 32) + v % 4, s = lane % 32;
                                            QCOMPARE(lane, s + 32 * ((r / 4) % 2));
                                            QCOMPARE(v, 4 * (r / 8) + r % 4);
                                            float sum = 0;
                                            for (int c = 0; c < 8; ++c)
                                                sum += fa[r + 32 * (c / 4)][c % 4] * fb[s + 32 * (c / 4)][c % 4];
                                            at(wave, lane, i, j, v) += sum;
                                        }
                                }
                }
                for (int wave = 0; wave < 4; ++wave)
                    for (int lane = 0; lane < 64; ++lane)
                        for (int i = 0; i < 2; ++i)
                            for (int j = 0; j < 2; ++j)
                                for (int v = 0; v < 16; ++v) {
                                    const int col = tileN + hm::waveCol(wave) + j * 32 + hm::mfmaResultCol(lane);
                                    const int row = tileM + hm::waveRow(wave) + i * 32 + hm::mfmaResultRow(lane, v);
                                    d[std::size_t(col) * m + row] = at(wave, lane, i, j, v);
                                    ++writes[std::size_t(col) * m + row];
                                }
            }
        for (int col = 0; col < n; ++col)
            for (int row = 0; row < m; ++row) {
                float want = 0;
                for (int q = 0; q < k; ++q)
                    want += a[std::size_t(row) * k + q] * b[std::size_t(col) * k + q];
                QCOMPARE(writes[std::size_t(col) * m + row], 1);
                QCOMPARE(d[std::size_t(col) * m + row], want);
            }
    }
};

PARETOSCOPE_GUILESS_SUITE(TestHipMath)
#include "tst_hipmath.moc"
