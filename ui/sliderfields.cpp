#include "ui/sliderfields.h"

#include "ui/wheelguard.h"

#include "core/base/units.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

namespace ui {

namespace {
constexpr int kSteps = 1000;
}

LogSliderField::LogSliderField(std::uint64_t min, std::uint64_t max, Formatter format, QWidget *parent)
    : QWidget(parent), m_min(min), m_max(max), m_acceptMin(min), m_acceptMax(max), m_value(min), m_format(std::move(format)),
      m_slider(new QSlider(Qt::Horizontal)), m_field(new QLineEdit)
{
    changeOnWheelOnlyWhenFocused(m_slider);
    m_slider->setRange(0, kSteps);
    m_slider->setPageStep(kSteps / 20);
    m_field->setMaximumWidth(110);
    m_field->setAlignment(Qt::AlignRight);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_field);
    setFocusProxy(m_slider);
    connect(m_slider, &QSlider::valueChanged, this, &LogSliderField::sliderMoved);
    connect(m_field, &QLineEdit::editingFinished, this, &LogSliderField::fieldEdited);
    show(m_value);
}

int LogSliderField::positionOf(std::uint64_t value) const
{
    const double span = std::log(static_cast<double>(m_max) / static_cast<double>(m_min));
    const double at = std::log(static_cast<double>(value) / static_cast<double>(m_min));
    return static_cast<int>(std::lround(kSteps * at / span));
}

void LogSliderField::setAcceptedRange(std::uint64_t min, std::uint64_t max)
{
    m_acceptMin = min;
    m_acceptMax = max;
}

void LogSliderField::setValue(std::uint64_t value)
{
    m_value = value;
    show(value);
}

void LogSliderField::show(std::uint64_t value)
{
    const QSignalBlocker blockSlider(m_slider);
    m_slider->setValue(positionOf(std::clamp(value, m_min, m_max)));
    m_field->setText(m_format(value));
    m_field->setStyleSheet(QString());
}

void LogSliderField::sliderMoved(int position)
{
    const double ratio = static_cast<double>(m_max) / static_cast<double>(m_min);
    const double exact = static_cast<double>(m_min) * std::pow(ratio, static_cast<double>(position) / kSteps);
    const std::uint64_t value = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::llround(exact)), m_min, m_max);
    m_field->setText(m_format(value));
    if (value == m_value)
        return;
    m_value = value;
    emit valueChanged(value);
}

void LogSliderField::fieldEdited()
{
    const auto parsed = core::parseCount(m_field->text().trimmed().toStdString(), m_suffixes);
    if (!parsed || *parsed < m_acceptMin || *parsed > m_acceptMax) {
        m_field->setStyleSheet(QStringLiteral("color: #D55E00"));
        m_field->setToolTip(tr("Enter a value between %1 and %2").arg(m_format(m_acceptMin), m_format(m_acceptMax)));
        return;
    }
    m_field->setToolTip(QString());
    if (*parsed == m_value) {
        show(m_value);
        return;
    }
    setValue(*parsed);
    emit valueChanged(*parsed);
}

StepSliderField::StepSliderField(QWidget *parent)
    : QWidget(parent), m_slider(new QSlider(Qt::Horizontal)), m_combo(new QComboBox)
{
    changeOnWheelOnlyWhenFocused(m_slider);
    changeOnWheelOnlyWhenFocused(m_combo);
    m_slider->setPageStep(1);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_combo->setMinimumContentsLength(10);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_combo);
    setFocusProxy(m_slider);
    connect(m_slider, &QSlider::valueChanged, this, [this](int i) {
        const QSignalBlocker block(m_combo);
        m_combo->setCurrentIndex(i);
        emit indexChanged(i);
    });
    connect(m_combo, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(i);
        emit indexChanged(i);
    });
}

void StepSliderField::setChoices(const QStringList &labels, const QStringList &tooltips)
{
    const QSignalBlocker blockCombo(m_combo);
    const QSignalBlocker blockSlider(m_slider);
    m_combo->clear();
    for (int i = 0; i < labels.size(); ++i) {
        m_combo->addItem(labels[i]);
        if (i < tooltips.size())
            m_combo->setItemData(i, tooltips[i], Qt::ToolTipRole);
    }
    m_slider->setRange(0, static_cast<int>(labels.size()) - 1);
}

int StepSliderField::index() const { return m_combo->currentIndex(); }

void StepSliderField::setIndex(int index)
{
    const QSignalBlocker blockCombo(m_combo);
    const QSignalBlocker blockSlider(m_slider);
    m_combo->setCurrentIndex(index);
    m_slider->setValue(index);
}

} // namespace ui
