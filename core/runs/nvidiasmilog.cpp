// nvidia-smi is closed source; what it prints is read from NVIDIA's
// documentation (nvidia-smi(1) and `nvidia-smi --help-query-gpu`):
//
// --query-gpu=name,memory.used,memory.total --format=csv prints a header
// "name, memory.used [MiB], memory.total [MiB]" and one row per GPU in
// index order, "NVIDIA A100-SXM4-80GB, 15000 MiB, 81920 MiB"; `nounits`
// drops " MiB" from the rows (the header keeps "[MiB]"), `noheader` drops
// the header. Any query columns are read from the header; without one, a
// row of three fields is read as the documented query, name, memory.used,
// memory.total.
//
// The default table: a box that starts with the "NVIDIA-SMI <version>"
// line (with "Driver Version", or "KMD Version" from driver 610); per GPU a row whose first cell is "<index>  <name>  On|Off" and a
// row with a cell "<used>MiB / <total>MiB"; then the "Processes:" box,
// rows "<gpu> <gi> <ci> <pid> <type> <name> <memory>MiB" (older drivers
// leave out GI and CI). Sizes are whole MiB, so each is within 1 MiB.

#include "core/runs/readers.h"

#include <algorithm>

namespace core::runlog {

namespace {

Bytes oneMib() { return Bytes::fromCount(1u << 20); }

/// A GPU index or count as nvidia-smi prints it (a few digits).
bool isInteger(const std::string &text)
{
    std::size_t pos = 0;
    const auto n = readNumber(text, pos);
    return n && !n->negative && n->decimals == 0 && pos == text.size() && n->value < 100000;
}

/// "15000 MiB" or, without units, "15000" in a column whose header says [MiB].
std::optional<Bytes> csvSize(const std::string &field, const std::string &headerUnit)
{
    std::size_t pos = 0;
    const auto n = readNumber(field, pos);
    if (!n || n->negative || n->decimals > 0)
        return std::nullopt;
    const std::string unit = trimmed(field.substr(pos));
    if (unit == "MiB" || (unit.empty() && (headerUnit.empty() || headerUnit == "[MiB]")))
        return bytesOf(*n, kMiB);
    return std::nullopt;
}

/// "15000MiB / 81920MiB" in a table cell.
bool usedOverTotal(const std::string &cell, Bytes &used, Bytes &total)
{
    std::size_t pos = 0;
    const auto u = readNumber(cell, pos);
    if (!u || cell.compare(pos, 3, "MiB") != 0)
        return false;
    pos += 3;
    while (pos < cell.size() && cell[pos] == ' ')
        ++pos;
    if (pos >= cell.size() || cell[pos] != '/')
        return false;
    ++pos;
    const auto t = readNumber(cell, pos);
    if (!t || cell.compare(pos, 3, "MiB") != 0)
        return false;
    used = bytesOf(*u, kMiB);
    total = bytesOf(*t, kMiB);
    return true;
}

void noteDevice(LogSettings &settings, const std::string &id, int index, const std::string &name,
                std::optional<Bytes> total, std::size_t line)
{
    for (LogDevice &d : settings.devices)
        if (d.id == id) {
            if (!name.empty())
                d.name = name;
            if (total)
                d.total = total;
            return;
        }
    settings.devices.push_back({id, index, name, total, line});
}

} // namespace

bool NvidiaSmiReader::read(const LogLine &line, ReadContext &context)
{
    // The header names the driver ("Driver Version: 550.163.01"), or, from
    // the 600 series, its kernel-mode part ("KMD Version: 610.57.04").
    if (line.text.find("NVIDIA-SMI ") != std::string::npos
        && (line.text.find("Driver Version") != std::string::npos || line.text.find("KMD Version") != std::string::npos)) {
        m_inTable = true;
        m_inProcesses = false;
        m_tableGpu = -1;
        context.seen(LogFormat::NvidiaSmiTable);
        return true;
    }
    if (m_inTable && readTable(line, context))
        return true;
    return readCsv(line, context);
}

bool NvidiaSmiReader::readTable(const LogLine &line, ReadContext &context)
{
    const std::string t = trimmed(line.text);
    if (t.empty())
        return true;
    if (t[0] == '+')
        return true;
    if (t[0] != '|') {
        m_inTable = false;
        return false;
    }
    if (t.find("Processes:") != std::string::npos) {
        m_inProcesses = true;
        return true;
    }
    const std::vector<std::string> cells = splitTrimmed(t.substr(1), '|');
    if (m_inProcesses) {
        // "<gpu> ... <name> <memory>MiB"
        std::vector<std::string> tokens;
        for (const std::string &token : splitTrimmed(cells[0], ' '))
            if (!token.empty())
                tokens.push_back(token);
        if (tokens.size() < 3 || !isInteger(tokens.front()) || !endsWith(tokens.back(), "MiB"))
            return true; // the box's headings, "No running processes found"
        std::size_t pos = 0;
        const auto gpu = readNumber(tokens.front(), pos);
        pos = 0;
        const auto memory = readNumber(tokens.back(), pos);
        if (!memory || pos + 3 != tokens.back().size()) {
            context.malformed(line, "a process's memory as 'NMiB'");
            return true;
        }
        const std::string device = "GPU " + std::to_string(static_cast<long long>(gpu->value));
        context.add({Quantity::SmiProcessMemory, device, tokens[tokens.size() - 2], bytesOf(*memory, kMiB), oneMib(), 0,
                     line.number},
                    LogFormat::NvidiaSmiTable);
        return true;
    }
    Bytes used;
    Bytes total;
    for (const std::string &cell : cells)
        if (cell.find("MiB") != std::string::npos && cell.find('/') != std::string::npos) {
            if (m_tableGpu < 0 || !usedOverTotal(cell, used, total)) {
                context.malformed(line, "'<used>MiB / <total>MiB' after a GPU's first row");
                return true;
            }
            const std::string device = "GPU " + std::to_string(m_tableGpu);
            context.add({Quantity::SmiMemoryUsed, device, {}, used, oneMib(), 0, line.number}, LogFormat::NvidiaSmiTable);
            context.add({Quantity::SmiMemoryTotal, device, {}, total, oneMib(), 0, line.number}, LogFormat::NvidiaSmiTable);
            noteDevice(context.log.settings, device, m_tableGpu, {}, total, line.number);
            return true;
        }
    // "<index>  <name>  On|Off" opens a GPU's rows.
    const std::string &first = cells[0];
    std::size_t pos = 0;
    const auto index = readNumber(first, pos);
    if (index && !index->negative && index->decimals == 0 && index->value < 100000 && pos < first.size() && first[pos] == ' '
        && (endsWith(first, " On") || endsWith(first, " Off"))) {
        m_tableGpu = static_cast<int>(index->value);
        const std::string name = trimmed(first.substr(pos, first.rfind(' ') - pos));
        noteDevice(context.log.settings, "GPU " + std::to_string(m_tableGpu), m_tableGpu, name, std::nullopt,
                   line.number);
    }
    return true;
}

bool NvidiaSmiReader::readCsv(const LogLine &line, ReadContext &context)
{
    const std::string t = trimmed(line.text);
    if (t.find(',') == std::string::npos) {
        m_csvColumns.clear();
        return false;
    }
    const std::vector<std::string> fields = splitTrimmed(t, ',');
    const bool header = std::any_of(fields.begin(), fields.end(), [](const std::string &f) {
        return startsWith(f, "memory.used") || startsWith(f, "memory.total");
    });
    if (header) {
        m_csvColumns.clear();
        m_csvUnits.clear();
        for (const std::string &f : fields) {
            const std::size_t bracket = f.find(" [");
            m_csvColumns.push_back(f.substr(0, bracket));
            m_csvUnits.push_back(bracket == std::string::npos ? "" : f.substr(bracket + 1));
        }
        m_csvRow = 0;
        context.seen(LogFormat::NvidiaSmiCsv);
        return true;
    }
    std::vector<std::string> columns = m_csvColumns;
    std::vector<std::string> units = m_csvUnits;
    if (columns.empty()) {
        // noheader: only the documented three-column query, a name first.
        const bool nameFirst = fields.size() == 3 && !fields[0].empty() && !isInteger(fields[0])
            && fields[0].find(':') == std::string::npos && fields[0].find('=') == std::string::npos;
        if (!nameFirst || !csvSize(fields[1], "") || !csvSize(fields[2], ""))
            return false;
        columns = {"name", "memory.used", "memory.total"};
        units = {"", "", ""};
    } else if (fields.size() != columns.size()) {
        m_csvColumns.clear();
        return false;
    }
    std::string device = "GPU " + std::to_string(m_csvRow);
    int index = m_csvRow++;
    std::string name;
    std::optional<Bytes> used;
    std::optional<Bytes> total;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == "index" && isInteger(fields[i])) {
            index = std::stoi(fields[i]);
            device = "GPU " + fields[i];
        } else if (columns[i] == "name") {
            name = fields[i];
        } else if (columns[i] == "memory.used" || columns[i] == "memory.total") {
            if (fields[i] == "[N/A]")
                continue;
            const auto size = csvSize(fields[i], units[i]);
            if (!size) {
                context.malformed(line, columns[i] + " as 'N MiB' (or N with nounits)");
                return true;
            }
            (columns[i] == "memory.used" ? used : total) = size;
        }
    }
    if (used)
        context.add({Quantity::SmiMemoryUsed, device, name, *used, oneMib(), 0, line.number}, LogFormat::NvidiaSmiCsv);
    if (total)
        context.add({Quantity::SmiMemoryTotal, device, name, *total, oneMib(), 0, line.number}, LogFormat::NvidiaSmiCsv);
    noteDevice(context.log.settings, device, index, name, total, line.number);
    return true;
}

} // namespace core::runlog
