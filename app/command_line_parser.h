#pragma once
// The npustudio command line: one QCommandLineParser definition shared by main() and
// the tests, read into the plain runner::CommandLine that the batch runner and the GUI
// use. Parsing stays here (QtCore) so that runner/ has no Qt.

#include "runner/batch/command_line.h"

#include <QCommandLineParser>
#include <QString>

namespace npu::app {

// Adds every option, --help and --version.
void addOptions(QCommandLineParser& parser);
// Reads the parsed options; returns an error message for bad values ("" when fine).
QString readCommandLine(const QCommandLineParser& parser, runner::CommandLine& out);

}  // namespace npu::app
