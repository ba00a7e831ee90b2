#include "app/junit_writer.h"

#include <QXmlStreamWriter>

namespace npu::app {

using regression::CaseStatus;

static QString qs(const std::string& s) { return QString::fromStdString(s); }

QByteArray junitXml(const std::string& suiteName, const std::vector<regression::CaseResult>& cases) {
    int failures = 0, errors = 0;
    double seconds = 0;
    for (const auto& c : cases) {
        failures += c.status == CaseStatus::fail;
        errors += c.status == CaseStatus::error;
        seconds += c.wallMs / 1e3;
    }
    QByteArray bytes;
    QXmlStreamWriter xml(&bytes);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("testsuites"));
    xml.writeStartElement(QStringLiteral("testsuite"));
    xml.writeAttribute(QStringLiteral("name"), qs(suiteName));
    xml.writeAttribute(QStringLiteral("tests"), QString::number(cases.size()));
    xml.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    xml.writeAttribute(QStringLiteral("errors"), QString::number(errors));
    xml.writeAttribute(QStringLiteral("time"), QString::number(seconds, 'f', 3));
    for (const auto& c : cases) {
        xml.writeStartElement(QStringLiteral("testcase"));
        xml.writeAttribute(QStringLiteral("classname"), qs(suiteName));
        xml.writeAttribute(QStringLiteral("name"), qs(c.name));
        xml.writeAttribute(QStringLiteral("time"), QString::number(c.wallMs / 1e3, 'f', 3));
        QString details;
        for (const auto& m : c.metrics) {
            details += QStringLiteral("%1: %2").arg(qs(m.path), QLatin1String(regression::verdictName(m.verdict)));
            if (m.baseline) details += QStringLiteral(" baseline %1").arg(*m.baseline, 0, 'g', 10);
            if (m.now) details += QStringLiteral(" now %1").arg(*m.now, 0, 'g', 10);
            if (!m.reason.empty()) details += QStringLiteral(" (%1)").arg(qs(m.reason));
            details += QLatin1Char('\n');
        }
        if (c.status == CaseStatus::error) {
            xml.writeStartElement(QStringLiteral("error"));
            xml.writeAttribute(QStringLiteral("message"), qs(c.error));
            xml.writeCharacters(details);
            xml.writeEndElement();
        } else if (c.status == CaseStatus::fail) {
            QStringList failed;
            for (const auto& m : c.metrics)
                if (regression::isFailure(m.verdict)) failed << qs(m.path + ": " + m.reason);
            xml.writeStartElement(QStringLiteral("failure"));
            xml.writeAttribute(QStringLiteral("message"), failed.join(QStringLiteral("; ")));
            xml.writeCharacters(details);
            xml.writeEndElement();
        } else if (!details.isEmpty()) {
            xml.writeTextElement(QStringLiteral("system-out"), details);
        }
        xml.writeEndElement();
    }
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    return bytes;
}

}  // namespace npu::app
