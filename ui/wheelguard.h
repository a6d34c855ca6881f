#pragma once

class QWidget;

namespace ui {

/// Makes a value input (combo box, spin box, slider) ignore the mouse wheel
/// until it has focus, so that the wheel over a panel of inputs scrolls the
/// panel instead of changing the input under the pointer; a click or Tab
/// focuses it, and then the wheel changes it as usual.
void changeOnWheelOnlyWhenFocused(QWidget *input);

} // namespace ui
