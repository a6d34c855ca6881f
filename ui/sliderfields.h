#pragma once

#include "core/base/units.h"

#include <QWidget>

#include <cstdint>
#include <functional>

class QComboBox;
class QLineEdit;
class QSlider;

namespace ui {

/// A logarithmic slider paired with an exact-entry field that stay in sync.
/// The field accepts what people type ("7B", "0.5b", "128k", "4096");
/// values outside [min, max] are refused with the field marked invalid.
class LogSliderField : public QWidget
{
    Q_OBJECT

public:
    using Formatter = std::function<QString(std::uint64_t)>;

    LogSliderField(std::uint64_t min, std::uint64_t max, Formatter format, QWidget *parent = nullptr);

    std::uint64_t value() const { return m_value; }
    /// What the field accepts when typed into, beyond the slider's span
    /// (the slider then rests at its end); default: the slider's span.
    void setAcceptedRange(std::uint64_t min, std::uint64_t max);
    /// What a typed k or M means (default decimal: 7B parameters).
    void setCountSuffixes(core::CountSuffixes suffixes) { m_suffixes = suffixes; }
    /// Sets without emitting valueChanged (for syncing from the model).
    void setValue(std::uint64_t value);

    QSlider *slider() const { return m_slider; }
    QLineEdit *field() const { return m_field; }

signals:
    void valueChanged(std::uint64_t value);

private:
    void sliderMoved(int position);
    void fieldEdited();
    int positionOf(std::uint64_t value) const;
    void show(std::uint64_t value);

    std::uint64_t m_min;
    std::uint64_t m_max;
    std::uint64_t m_acceptMin;
    std::uint64_t m_acceptMax;
    core::CountSuffixes m_suffixes = core::CountSuffixes::Decimal;
    std::uint64_t m_value;
    Formatter m_format;
    QSlider *m_slider;
    QLineEdit *m_field;
};

/// A stepped slider over a list of choices, paired with a combo box.
class StepSliderField : public QWidget
{
    Q_OBJECT

public:
    explicit StepSliderField(QWidget *parent = nullptr);

    void setChoices(const QStringList &labels, const QStringList &tooltips = {});
    int index() const;
    /// Sets without emitting indexChanged.
    void setIndex(int index);

    QSlider *slider() const { return m_slider; }
    QComboBox *combo() const { return m_combo; }

signals:
    void indexChanged(int index);

private:
    QSlider *m_slider;
    QComboBox *m_combo;
};

} // namespace ui
