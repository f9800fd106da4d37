#include "common/device_text.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "device/device.hpp"

#include <QStringList>

namespace tbui {

const tb::OpenClDeviceInfo* DeviceText::openCl(const tb::DeviceSpec& spec, const tb::SystemInfo& system)
{
    if (spec.kind != tb::DeviceKind::OpenCl)
        return nullptr;
    for (const tb::OpenClDeviceInfo& d : system.openclDevices)
        if (d.index == spec.index)
            return &d;
    return nullptr;
}

QString DeviceText::openClKind(const tb::OpenClDeviceInfo& d)
{
    const QString type = d.type == "GPU" ? tr("GPU") : d.type == "CPU" ? tr("CPU") : tr("accelerator");
    // PoCL's platform name is long; it is the one a learner meets on a machine without a GPU.
    const QString platform = d.platform == "Portable Computing Language" ? QStringLiteral("PoCL") : qs(d.platform);
    return platform.isEmpty() ? type : tr("%1, %2", "OpenCL device type, platform").arg(type, platform);
}

QString DeviceText::openClName(const tb::OpenClDeviceInfo& d)
{
    return tr("OpenCL: %1 (%2)").arg(qs(d.name), openClKind(d));
}

QString DeviceText::openClShortName(const tb::OpenClDeviceInfo& d, const tb::SystemInfo& system)
{
    QString name = qs(d.name);
    const QString cpu = qs(system.cpu.model);
    if (d.type == "CPU" && !cpu.isEmpty() && name.endsWith(cpu))
        name = cpu;
    else if (name.size() > 28)
        name = name.left(27) + QChar(0x2026);
    return tr("OpenCL: %1 (%2)").arg(name, openClKind(d));
}

QString DeviceText::openClDetails(const tb::OpenClDeviceInfo& d)
{
    const QString id = QStringLiteral("opencl:%1").arg(d.index);
    if (!d.unusableReason.empty())
        return tr("%1, unavailable: %2").arg(id, EngineText::english(qs(d.unusableReason)));
    const QString units = d.clockMHz > 0 ? tr("%1 compute units at %2 MHz").arg(d.computeUnits).arg(d.clockMHz)
                                         : tr("%1 compute units").arg(d.computeUnits);
    return tr("%1, %2, %3, about %4 GFLOP/s FP32")
        .arg(id, units, formatBytes(d.memoryBytes))
        .arg(formatNumber(d.peakGflops, 0));
}

QString DeviceText::openClSummary(const tb::SystemInfo& system)
{
    if (system.openclDevices.empty())
        return tr("OpenCL: none usable (%1)").arg(EngineText::english(qs(system.openclUnavailableReason)));
    QStringList lines;
    for (const tb::OpenClDeviceInfo& d : system.openclDevices)
        lines << tr("%1 — %2", "OpenCL device name — details").arg(openClName(d), openClDetails(d));
    return lines.join(QLatin1Char('\n'));
}

bool DeviceText::isOpenClNotGpu(const tb::DeviceSpec& spec, const tb::SystemInfo& system)
{
    const tb::OpenClDeviceInfo* d = openCl(spec, system);
    return d && d->type != "GPU";
}

} // namespace tbui
