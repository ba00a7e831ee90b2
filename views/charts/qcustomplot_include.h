#pragma once
// Debian's qcustomplot.h uses Qt's `foreach`, which our QT_NO_FOREACH build disables.
// Include this header FIRST in a .cpp that uses QCustomPlot (before any Qt header), so
// the macro is still defined when Qt's headers are read for this translation unit.

#ifdef QT_NO_FOREACH
#undef QT_NO_FOREACH
#endif
#include <qcustomplot.h>
