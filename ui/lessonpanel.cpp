#include "ui/lessonpanel.h"

#include "core/base/units.h"

#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ui {

namespace {

QString html(const core::LocalizedText &text, const std::string &language)
{
    return QString::fromStdString(core::localized(text, language)).toHtmlEscaped();
}

QString figure(const core::LessonCheck &check, double value, core::ByteUnit unit)
{
    if (check.quantity.find("percent") != std::string::npos)
        return QStringLiteral("%1 %").arg(value, 0, 'f', 2);
    if (check.quantity.find("bytes") != std::string::npos)
        return QStringLiteral("%1 (%2 B)")
            .arg(QString::fromStdString(core::formatBytes(core::Bytes::fromDouble(value), unit)),
                 QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(value))));
    return QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(value)));
}

QString stated(const core::LessonCheck &check, core::ByteUnit unit)
{
    if (check.expected)
        return figure(check, *check.expected, unit);
    QStringList bounds;
    if (check.atLeast)
        bounds << QStringLiteral("≥ ") + figure(check, *check.atLeast, unit);
    if (check.atMost)
        bounds << QStringLiteral("≤ ") + figure(check, *check.atMost, unit);
    return bounds.join(QStringLiteral(", "));
}

} // namespace

LessonPanel::LessonPanel(QWidget *parent) : QWidget(parent), m_view(new QTextBrowser), m_toolButton(new QPushButton)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    layout->addWidget(m_toolButton);
    m_view->setOpenExternalLinks(true);
    // Lines break between words, never inside a number ("13.04 GiB").
    m_view->setWordWrapMode(QTextOption::WordWrap);
    // Wide enough for the check table's four columns; the dock resizes.
    setMinimumWidth(fontMetrics().averageCharWidth() * 48);
    m_toolButton->hide();
    connect(m_toolButton, &QPushButton::clicked, this, [this] { emit toolRequested(m_tool); });
}

void LessonPanel::showLesson(const core::Lesson &lesson, const core::Catalog &catalog, const QString &language,
                             core::ByteUnit unit)
{
    const std::string lang = language.toStdString();
    QString body = QStringLiteral("<h2>%1</h2><p><small>%2</small></p>")
                       .arg(html(lesson.title, lang),
                            tr("Seed notes: %1").arg(QString::fromStdString([&lesson] {
                                std::string facts;
                                for (const std::string &f : lesson.seedFacts)
                                    facts += (facts.empty() ? "" : ", ") + f;
                                return facts;
                            }())));
    body += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(tr("Question"), html(lesson.question, lang));
    body += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(tr("Answer"), html(lesson.answer, lang));
    body += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(tr("Why"), html(lesson.explanation, lang));
    body += QStringLiteral("<h3>%1</h3><table cellspacing=6><tr><th align=left>%2</th><th align=left>%3</th>"
                           "<th align=left>%4</th><th></th></tr>")
                .arg(tr("Checked against the engine"), tr("Figure"), tr("The lesson says"), tr("The engine computes"));
    for (const core::LessonCheck &c : lesson.checks) {
        const double value = core::evaluateCheck(lesson, c, catalog);
        // "weights bytes", not "weights_bytes": a narrow dock then wraps
        // between words instead of breaking one.
        // A check on a changed setting names it: "fits (a100-sxm4-80gb) [checkpointing: none]".
        const QString what = QString::fromStdString(c.quantity + (c.gpu.empty() ? "" : " (" + c.gpu + ")")
                                                    + (c.rule.empty() ? "" : " (" + c.rule + ")")
                                                    + (c.term ? " (" + std::string(core::termId(*c.term)) + ")" : "")
                                                    + (c.variantText.empty() ? "" : " [" + c.variantText + "]"))
                                 .replace(QLatin1Char('_'), QLatin1Char(' '));
        body += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                    .arg(what.toHtmlEscaped(), stated(c, unit), figure(c, value, unit),
                         core::checkHolds(c, value) ? QStringLiteral("✔") : QStringLiteral("✘"));
    }
    body += QStringLiteral("</table><p><small>%1</small></p>")
                .arg(tr("The lesson's scenario is now loaded: move any slider to explore it."));
    m_view->setHtml(body);
    // "utilization" is the one tool a lesson can name (core::lessonTools()).
    m_tool = QString::fromStdString(lesson.tool);
    m_toolButton->setText(tr("Open the GPU &Utilisation Calculator"));
    m_toolButton->setVisible(!m_tool.isEmpty());
}

QString LessonPanel::text() const
{
    return m_view->toPlainText();
}

} // namespace ui
