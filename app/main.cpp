// npustudio: the GUI, or with --batch (and for --help/--version) a console tool that
// never touches a display: that path makes only a QCoreApplication (for the parser) and
// hands the plain command line to npu_runner, which has no Qt.

#include "app/command_line_parser.h"
#include "app/main_window.h"
#include "runner/batch/batch_runner.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstring>
#include <iostream>
#include <memory>

static bool needsNoDisplay(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"--batch", "--help", "-h", "--help-all", "--version", "-v", "-?"})
            if (std::strcmp(argv[i], flag) == 0) return true;
    }
    return false;
}

static void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("NPU Studio"));
    QCoreApplication::setApplicationName(QStringLiteral("npustudio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NPU_VERSION));
}

int main(int argc, char** argv) {
    const bool console = needsNoDisplay(argc, argv);
    std::unique_ptr<QCoreApplication> app;
    if (console)
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv);
    setIdentity();

    QCommandLineParser parser;
    npu::app::addOptions(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        std::cerr << "npustudio: " << parser.errorText().toStdString() << " (see npustudio --help)\n";
        return npu::runner::kExitBadInput;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version"))) parser.showVersion();

    npu::runner::CommandLine cmd;
    if (const QString problem = npu::app::readCommandLine(parser, cmd); !problem.isEmpty()) {
        std::cerr << "npustudio: " << problem.toStdString() << "\n";
        return npu::runner::kExitBadInput;
    }
    if (cmd.batch) return npu::runner::runBatch(cmd, std::cout, std::cerr);

    npu::app::MainWindow window;
    window.show();
    for (const QString& file : parser.positionalArguments()) window.openPath(file);
    return app->exec();
}
