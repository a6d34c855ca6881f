#include "ui/fieldeditor.h"

#include "ui/language.h"
#include "ui/scenariocontroller.h"
#include "ui/wheelguard.h"

#include "core/io/builtin.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>

#include <climits>
#include <cmath>

namespace ui {

namespace {

QString translated(const char *text) { return QCoreApplication::translate("Field", text); }

QString choiceLabel(const core::FieldDescriptor &f, const std::string &id)
{
    for (const core::FieldChoice &c : f.choices)
        if (id == c.id)
            return translated(c.label);
    return QString::fromStdString(id);
}

/// Text checked by its field (library versions) is typed; other text is a
/// catalog GPU, picked.
bool isTypedText(const core::FieldDescriptor &f)
{
    return f.kind == core::FieldKind::Text && f.checkText;
}

bool usesCombo(const core::FieldDescriptor &f)
{
    return f.kind == core::FieldKind::Choice || (f.kind == core::FieldKind::Text && !isTypedText(f))
        || f.kind == core::FieldKind::ModelPreset || (f.kind == core::FieldKind::Integer && !f.choices.empty());
}

bool isList(const core::FieldDescriptor &f)
{
    return f.kind == core::FieldKind::NumberList || f.kind == core::FieldKind::TextList || isTypedText(f);
}

/// What an emptied line edit means: no count (0), or an empty list.
std::string emptyValue(const core::FieldDescriptor &f, const QString &text)
{
    if (text.isEmpty())
        return isList(f) ? std::string() : std::string("0");
    return text.toStdString();
}

/// Integers beyond a spin box's int (a token budget) are typed as counts.
bool usesCountField(const core::FieldDescriptor &f)
{
    return f.kind == core::FieldKind::Integer && f.choices.empty() && f.max > INT_MAX;
}

/// Keeps what a scenario file holds to six decimals (a spin box rounds to
/// its decimals) but shows no more digits than the value has, and at least
/// the field's own.
class ExactSpinBox : public QDoubleSpinBox
{
public:
    explicit ExactSpinBox(int shownDecimals) : m_shownDecimals(shownDecimals) { setDecimals(6); }

    QString textFromValue(double value) const override
    {
        int digits = m_shownDecimals;
        while (digits < decimals() && std::fabs(value * std::pow(10.0, digits) - std::round(value * std::pow(10.0, digits))) > 1e-6)
            ++digits;
        return locale().toString(value, 'f', digits);
    }

private:
    int m_shownDecimals;
};

} // namespace

QComboBox *compactCombo()
{
    auto *combo = new QComboBox;
    changeOnWheelOnlyWhenFocused(combo);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(10);
    return combo;
}

FieldEditor::FieldEditor(core::FieldId id, ScenarioController *controller, QWidget *parent)
    : QWidget(parent), m_field(core::field(id)), m_controller(controller)
{
    build();
    connect(controller, &ScenarioController::fieldsChanged, this, &FieldEditor::refresh);
    refresh();
}

QString FieldEditor::label() const { return translated(m_field.label); }

void FieldEditor::build()
{
    const core::FieldDescriptor &f = m_field;
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    const QString unit = *f.unit ? QStringLiteral(" ") + translated(f.unit) : QString();
    if (usesCombo(f)) {
        auto *combo = compactCombo();
        if (f.optional())
            combo->addItem(QString(), QString()); // "default: …", set by refresh()
        if (f.kind == core::FieldKind::Text || f.kind == core::FieldKind::ModelPreset)
            combo->addItem(tr("none"), QString());
        if (f.kind == core::FieldKind::Text)
            for (const core::GpuSpec &gpu : m_controller->catalog().gpus)
                combo->addItem(QString::fromStdString(gpu.name), QString::fromStdString(gpu.id));
        if (f.kind == core::FieldKind::ModelPreset)
            for (const core::io::ModelPreset &preset : core::io::builtinPresets())
                combo->addItem(QString::fromStdString(preset.name), QString::fromStdString(preset.id));
        for (const core::FieldChoice &c : f.choices)
            combo->addItem(translated(c.label), QString::fromUtf8(c.id));
        connect(combo, &QComboBox::activated, this, [this, combo](int i) {
            const QString id = combo->itemData(i).toString();
            if (m_field.optional() && i == 0)
                send(core::FieldValue());
            else if (m_field.kind == core::FieldKind::Integer)
                send(id.toDouble());
            else
                send(id.toStdString());
        });
        m_input = combo;
    } else if (usesCountField(f) || isList(f)) {
        auto *line = new QLineEdit;
        line->setPlaceholderText(f.example                                 ? translated(f.example)
                                     : f.kind == core::FieldKind::NumberList ? tr("e.g. 24,12")
                                     : f.kind == core::FieldKind::TextList   ? tr("e.g. rtx-4090,rtx-3090")
                                     : isTypedText(f)                        ? tr("current")
                                                                             : tr("e.g. 300B"));
        connect(line, &QLineEdit::editingFinished, this, [this, line] {
            std::optional<core::Message> problem;
            const QString text = line->text().trimmed();
            const auto value = core::parseFieldValue(m_field, emptyValue(m_field, text), problem);
            line->setStyleSheet(value ? QString() : QStringLiteral("color: #D55E00"));
            // Why the text is refused, where the pointer rests on it.
            line->setToolTip(problem ? QString::fromStdString(core::render(*problem, translateForCore)) : QString());
            if (value)
                send(*value);
        });
        m_input = line;
    } else if (f.kind == core::FieldKind::Integer && !f.optional()) {
        auto *spin = new QSpinBox;
        changeOnWheelOnlyWhenFocused(spin);
        spin->setRange(static_cast<int>(f.min), static_cast<int>(f.max));
        spin->setGroupSeparatorShown(true);
        spin->setSuffix(unit);
        connect(spin, &QSpinBox::valueChanged, this, [this](int v) { send(static_cast<double>(v)); });
        m_input = spin;
    } else if (f.kind == core::FieldKind::Number || f.kind == core::FieldKind::Integer) {
        // Numbers, and integers that may follow a default (-ngl: all layers).
        auto *spin = new ExactSpinBox(f.decimals);
        changeOnWheelOnlyWhenFocused(spin);
        spin->setRange(f.min, f.max);
        spin->setSingleStep(f.max <= 1 ? 0.05 : 1.0);
        spin->setSuffix(unit);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
            if (!m_default || !m_default->isChecked())
                send(v);
        });
        m_input = spin;
        if (f.optional()) {
            // Checked: the default the engine derives (shown, not editable).
            m_default = new QCheckBox(tr("default"));
            connect(m_default, &QCheckBox::toggled, this, [this, spin](bool automatic) {
                // Leaving a default with no one value starts from the middle of the range.
                if (!automatic && !spin->specialValueText().isEmpty() && spin->value() == spin->minimum())
                    spin->setValue(std::round((spin->minimum() + spin->maximum()) / 2 * 100) / 100);
                send(automatic ? core::FieldValue() : core::FieldValue(spin->value()));
            });
            layout->addWidget(m_default);
        }
    } else if (f.kind == core::FieldKind::Flag) {
        auto *box = new QCheckBox(translated(f.label));
        connect(box, &QCheckBox::toggled, this, [this](bool on) { send(on); });
        m_input = box;
    } else { // ChoiceSet: a check box per choice
        auto *boxes = new QWidget;
        auto *grid = new QGridLayout(boxes);
        grid->setContentsMargins(0, 0, 0, 0);
        int i = 0;
        for (const core::FieldChoice &c : f.choices) {
            auto *box = new QCheckBox(translated(c.label));
            box->setObjectName(QString::fromUtf8(c.id));
            grid->addWidget(box, i / 4, i % 4);
            ++i;
            connect(box, &QCheckBox::toggled, this, [this] { send(value()); });
        }
        m_input = boxes;
    }
    layout->addWidget(m_input, 1);
    setFocusProxy(m_input);
}

void FieldEditor::send(const core::FieldValue &value)
{
    if (!m_refreshing)
        m_controller->setField(m_field.id, value);
}

void FieldEditor::refresh()
{
    const core::Scenario &s = m_controller->scenario();
    const core::FieldDescriptor &f = m_field;
    const core::FieldValue stored = f.stored(s);
    const core::FieldValue shown = f.effective(s);
    const bool applies = f.applies(s);
    const char *overriddenBy = f.overriddenBy ? f.overriddenBy(s) : nullptr;
    // Every edit announces itself to every editor; most have nothing new
    // to show (a slider step changes one field and the defaults of few).
    if (m_shown && m_shown->stored == stored && m_shown->effective == shown && m_shown->applies == applies
        && m_shown->overriddenBy == overriddenBy)
        return;
    m_shown = Shown{stored, shown, applies, overriddenBy};
    setToolTip(overriddenBy ? translated(f.help) + "\n" + translated(overriddenBy) : translated(f.help));
    const bool isDefault = std::holds_alternative<std::monostate>(stored);
    // The inputs' change signals fire while they are set; `send` ignores them.
    m_refreshing = true;
    if (auto *combo = qobject_cast<QComboBox *>(m_input)) {
        if (f.optional()) {
            const QString effective = std::holds_alternative<std::string>(shown)
                ? choiceLabel(f, std::get<std::string>(shown))
                : translated(f.defaultFollows);
            combo->setItemText(0, tr("default: %1").arg(effective));
        } else if (f.kind == core::FieldKind::Text) {
            // The focus GPU: unset, the figures still use one.
            const core::GpuSpec *gpu = m_controller->focusGpu();
            combo->setItemText(0, gpu ? tr("default: %1").arg(QString::fromStdString(gpu->name)) : tr("none"));
        }
        QString id;
        if (const std::string *text = std::get_if<std::string>(&stored))
            id = QString::fromStdString(*text);
        else if (const double *number = std::get_if<double>(&stored))
            id = QString::number(*number);
        const int index = isDefault && f.optional() ? 0 : std::max(0, combo->findData(id));
        if (combo->currentIndex() != index)
            combo->setCurrentIndex(index);
    } else if (auto *line = qobject_cast<QLineEdit *>(m_input)) {
        // Left alone while the user types in it; a value shown from the
        // scenario replaces refused text, and with it the refusal's marks.
        const std::string *list = std::get_if<std::string>(&shown);
        if (!line->hasFocus()) {
            line->setText(list ? QString::fromStdString(*list)
                               : std::get<double>(shown) > 0 ? QString::fromStdString(core::formatFieldValue(f, shown))
                                                             : QString());
            line->setStyleSheet(QString());
            line->setToolTip(QString());
        }
    } else if (auto *spin = qobject_cast<QSpinBox *>(m_input)) {
        spin->setValue(static_cast<int>(std::get<double>(shown)));
    } else if (auto *real = qobject_cast<QDoubleSpinBox *>(m_input)) {
        // A default with no one value (SGLang's fraction for each GPU,
        // vLLM's pool from the share) says what it follows instead.
        if (const double *number = std::get_if<double>(&shown)) {
            real->setSpecialValueText(QString());
            real->setValue(*number);
        } else {
            real->setSpecialValueText(translated(f.defaultFollows));
            real->setValue(real->minimum());
        }
        real->setEnabled(!isDefault);
        if (m_default)
            m_default->setChecked(isDefault);
    } else if (auto *box = qobject_cast<QCheckBox *>(m_input)) {
        box->setChecked(std::get<bool>(shown));
    } else {
        const std::string ids = "," + std::get<std::string>(shown) + ",";
        for (const core::FieldChoice &c : f.choices)
            m_input->findChild<QCheckBox *>(QString::fromUtf8(c.id))
                ->setChecked(ids.find("," + std::string(c.id) + ",") != std::string::npos);
    }
    m_refreshing = false;
    setEnabled(applies);
}

core::FieldValue FieldEditor::value() const
{
    const core::FieldDescriptor &f = m_field;
    if (auto *combo = qobject_cast<QComboBox *>(m_input)) {
        if (f.optional() && combo->currentIndex() == 0)
            return core::FieldValue();
        const QString id = combo->currentData().toString();
        return f.kind == core::FieldKind::Integer ? core::FieldValue(id.toDouble()) : core::FieldValue(id.toStdString());
    }
    if (auto *line = qobject_cast<QLineEdit *>(m_input)) {
        std::optional<core::Message> problem;
        const QString text = line->text().trimmed();
        return core::parseFieldValue(f, emptyValue(f, text), problem).value_or(core::FieldValue());
    }
    if (auto *spin = qobject_cast<QSpinBox *>(m_input))
        return static_cast<double>(spin->value());
    if (auto *real = qobject_cast<QDoubleSpinBox *>(m_input))
        return m_default && m_default->isChecked() ? core::FieldValue() : core::FieldValue(real->value());
    if (auto *box = qobject_cast<QCheckBox *>(m_input))
        return box->isChecked();
    std::string ids;
    for (const core::FieldChoice &c : f.choices)
        if (m_input->findChild<QCheckBox *>(QString::fromUtf8(c.id))->isChecked())
            ids += (ids.empty() ? "" : ",") + std::string(c.id);
    return ids;
}

std::vector<FieldEditor *> addFieldRows(QFormLayout *form, const std::vector<core::FieldId> &ids,
                                        ScenarioController *controller)
{
    std::vector<FieldEditor *> editors;
    for (core::FieldId id : ids) {
        auto *editor = new FieldEditor(id, controller);
        // A flag names itself beside its check box.
        if (core::field(id).kind == core::FieldKind::Flag)
            form->addRow(QString(), editor);
        else
            form->addRow(FieldEditor::tr("%1:").arg(editor->label()), editor);
        editors.push_back(editor);
    }
    return editors;
}

std::vector<core::FieldId> fieldsOf(core::FieldGroup group)
{
    std::vector<core::FieldId> ids;
    for (const core::FieldDescriptor &f : core::allFields())
        if (f.group == group)
            ids.push_back(f.id);
    return ids;
}

} // namespace ui
