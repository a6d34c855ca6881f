#pragma once

// A PDF's page size, and the printed size of every run of its text read
// from its content streams as a PDF reader places it (ISO 32000-1 §9.4.2:
// the text space is the font size scaled by the text matrix and the current
// transformation matrix), so a test can hold an export to a minimum point
// size without rendering it.

#include <QByteArray>
#include <QRegularExpression>
#include <QSizeF>
#include <QtEndian>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace testsupport {

/// The streams of `pdf` that hold text objects (BT ... ET), inflated (Qt
/// writes them FlateDecode).
inline std::vector<QByteArray> pdfTextStreams(const QByteArray &pdf)
{
    std::vector<QByteArray> streams;
    qsizetype at = 0;
    while ((at = pdf.indexOf("stream", at)) >= 0) {
        const bool keyword = at < 3 || pdf.mid(at - 3, 3) != "end";
        at += 6;
        if (!keyword)
            continue;
        qsizetype start = at;
        if (start < pdf.size() && pdf[start] == '\r')
            ++start;
        if (start < pdf.size() && pdf[start] == '\n')
            ++start;
        const qsizetype end = pdf.indexOf("endstream", start);
        if (end < 0)
            break;
        const QByteArray data = pdf.mid(start, end - start);
        // qUncompress wants the inflated size first (big-endian); a
        // generous guess is enough, it grows the buffer as needed.
        QByteArray sized(4, '\0');
        qToBigEndian<quint32>(static_cast<quint32>(std::min<qsizetype>(data.size() * 32, 1 << 26)), sized.data());
        const QByteArray inflated = qUncompress(sized + data);
        const QByteArray &text = inflated.isEmpty() ? data : inflated;
        if (text.contains("BT") && text.contains("ET"))
            streams.push_back(text);
        at = end + 9;
    }
    return streams;
}

/// The effective size in points of each text-showing operator (Tj, TJ, ', ")
/// of every content stream: Tf's size times the scale of Tm x CTM.
inline std::vector<double> pdfTextSizes(const QByteArray &pdf)
{
    using Matrix = std::array<double, 6>; // a b c d e f
    const auto times = [](const Matrix &m, const Matrix &n) {
        return Matrix{m[0] * n[0] + m[1] * n[2],        m[0] * n[1] + m[1] * n[3],
                      m[2] * n[0] + m[3] * n[2],        m[2] * n[1] + m[3] * n[3],
                      m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]};
    };
    const Matrix identity{1, 0, 0, 1, 0, 0};
    const auto isSpace = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; };
    const auto isDelimiter = [&isSpace](char c) { return isSpace(c) || QByteArray("()<>[]/").contains(c); };
    std::vector<double> sizes;
    for (const QByteArray &stream : pdfTextStreams(pdf)) {
        std::vector<Matrix> saved;
        Matrix ctm = identity, tm = identity;
        double fontSize = 0;
        std::vector<double> operands;
        for (qsizetype i = 0; i < stream.size();) {
            const char c = stream[i];
            if (c == '(' || c == '<' || c == '[') {
                // Strings, hex strings and arrays are text, not operands we need.
                const char close = c == '(' ? ')' : c == '<' ? '>' : ']';
                qsizetype j = i + 1;
                while (j < stream.size() && stream[j] != close)
                    j += stream[j] == '\\' ? 2 : 1;
                i = j + 1;
                continue;
            }
            if (isSpace(c) || c == ']' || c == '>' || c == ')') {
                ++i;
                continue;
            }
            qsizetype j = i;
            // A token, or a name: the slash and what follows it.
            if (c == '/')
                ++j;
            while (j < stream.size() && !isDelimiter(stream[j]))
                ++j;
            const QByteArray token = stream.mid(i, std::max<qsizetype>(j - i, 1));
            i = std::max(j, i + 1);
            bool number = false;
            const double value = token.toDouble(&number);
            if (number) {
                operands.push_back(value);
                continue;
            }
            const auto last6 = [&operands] {
                Matrix m = {};
                for (int k = 0; k < 6; ++k)
                    m[k] = operands[operands.size() - 6 + k];
                return m;
            };
            if (token == "q") {
                saved.push_back(ctm);
            } else if (token == "Q" && !saved.empty()) {
                ctm = saved.back();
                saved.pop_back();
            } else if (token == "cm" && operands.size() >= 6) {
                ctm = times(last6(), ctm);
            } else if (token == "BT") {
                tm = identity;
            } else if (token == "Tm" && operands.size() >= 6) {
                tm = last6();
            } else if (token == "Tf" && !operands.empty()) {
                fontSize = operands.back();
            } else if (token == "Tj" || token == "TJ" || token == "'" || token == "\"") {
                const Matrix m = times(tm, ctm);
                sizes.push_back(fontSize * std::sqrt(std::abs(m[0] * m[3] - m[1] * m[2])));
            }
            if (!token.startsWith('/'))
                operands.clear();
        }
    }
    return sizes;
}

/// The first page's size in points, from its /MediaBox (empty where none).
inline QSizeF pdfPageSize(const QByteArray &pdf)
{
    const QRegularExpressionMatch box =
        QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)")).match(QString::fromLatin1(pdf));
    return box.hasMatch() ? QSizeF(box.captured(1).toDouble(), box.captured(2).toDouble()) : QSizeF();
}

/// The smallest effective text size in `pdf` (0 where it shows no text).
inline double smallestTextSize(const QByteArray &pdf)
{
    const std::vector<double> sizes = pdfTextSizes(pdf);
    return sizes.empty() ? 0.0 : *std::min_element(sizes.begin(), sizes.end());
}

} // namespace testsupport
