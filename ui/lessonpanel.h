#pragma once

#include "core/base/units.h"
#include "core/explain/lessons.h"

#include <QWidget>

class QPushButton;
class QTextBrowser;

namespace ui {

/// Shows a lesson: the question as the notes ask it, the answer, the
/// explanation, and each figure the answer states next to what the engine
/// computes for the lesson's scenario; a button opens the tool the lesson
/// is about, if it names one.
class LessonPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LessonPanel(QWidget *parent = nullptr);

    /// Byte figures in `unit`, the window's, like the lesson's own text.
    void showLesson(const core::Lesson &lesson, const core::Catalog &catalog, const QString &language,
                    core::ByteUnit unit);
    QString text() const;

signals:
    /// The user asked for the lesson's tool (core::lessonTools()).
    void toolRequested(const QString &tool);

private:
    QTextBrowser *m_view;
    QPushButton *m_toolButton;
    QString m_tool;
};

} // namespace ui
