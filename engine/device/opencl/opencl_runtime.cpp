#include "device/opencl/opencl_runtime.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/sha256.hpp"
#include "core/stop_signals.hpp"
#include "device/kernel_cache.hpp"
#include "device/opencl/opencl_devices.hpp"
#include "device/opencl/opencl_kernel_sources.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

namespace tb::ocl {

std::string errorName(cl_int err)
{
    const char* name = "an OpenCL error";
    switch (err) {
    case CL_DEVICE_NOT_FOUND:
        name = "CL_DEVICE_NOT_FOUND";
        break;
    case CL_DEVICE_NOT_AVAILABLE:
        name = "CL_DEVICE_NOT_AVAILABLE";
        break;
    case CL_COMPILER_NOT_AVAILABLE:
        name = "CL_COMPILER_NOT_AVAILABLE";
        break;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        name = "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        break;
    case CL_OUT_OF_RESOURCES:
        name = "CL_OUT_OF_RESOURCES";
        break;
    case CL_OUT_OF_HOST_MEMORY:
        name = "CL_OUT_OF_HOST_MEMORY";
        break;
    case CL_BUILD_PROGRAM_FAILURE:
        name = "CL_BUILD_PROGRAM_FAILURE";
        break;
    case CL_INVALID_VALUE:
        name = "CL_INVALID_VALUE";
        break;
    case CL_INVALID_BUFFER_SIZE:
        name = "CL_INVALID_BUFFER_SIZE";
        break;
    case CL_INVALID_KERNEL_NAME:
        name = "CL_INVALID_KERNEL_NAME";
        break;
    case CL_INVALID_KERNEL_ARGS:
        name = "CL_INVALID_KERNEL_ARGS";
        break;
    case CL_INVALID_WORK_GROUP_SIZE:
        name = "CL_INVALID_WORK_GROUP_SIZE";
        break;
    case CL_INVALID_COMMAND_QUEUE:
        name = "CL_INVALID_COMMAND_QUEUE";
        break;
    case CL_INVALID_CONTEXT:
        name = "CL_INVALID_CONTEXT";
        break;
    case CL_INVALID_MEM_OBJECT:
        name = "CL_INVALID_MEM_OBJECT";
        break;
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
        name = "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
        break;
    case -1001:
        name = "CL_PLATFORM_NOT_FOUND_KHR";
        break;
    default:
        break;
    }
    return std::string(name) + " (" + std::to_string(err) + ")";
}

std::string deviceString(cl_device_id d, cl_device_info what)
{
    size_t size = 0;
    if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return "?";
    std::string s(size, '\0');
    clGetDeviceInfo(d, what, size, s.data(), nullptr);
    while (!s.empty() && (s.back() == '\0' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string platformString(cl_platform_id p, cl_platform_info what)
{
    size_t size = 0;
    if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return "?";
    std::string s(size, '\0');
    clGetPlatformInfo(p, what, size, s.data(), nullptr);
    while (!s.empty() && (s.back() == '\0' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string unusableReason(cl_device_id d)
{
    if (!deviceValue<cl_bool>(d, CL_DEVICE_AVAILABLE))
        return "is not available (in use by another program or switched off)";
    if (!deviceValue<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE))
        return "has no OpenCL C compiler";
    const std::string version = deviceString(d, CL_DEVICE_VERSION); // "OpenCL 1.2 ..."
    int major = 0, minor = 0;
    if (std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) != 2 || major * 10 + minor < 12)
        return "supports " + version + "; the backend needs OpenCL 1.2";
    if (deviceValue<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE) < 256)
        return "runs work-groups of fewer than 256 items; the backend's reductions need 256";
    return {};
}

void check(cl_int err, const char* what)
{
    if (err == CL_SUCCESS)
        return;
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY)
        throw DeviceError(std::string("out of device memory (") + what + ": " + errorName(err) +
                          "); use a smaller batch or size multiplier");
    if (err == CL_DEVICE_NOT_AVAILABLE || err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        throw DeviceError(std::string("the OpenCL device was lost (") + what + ": " + errorName(err) + ")");
    throw DeviceError(std::string("OpenCL call failed: ") + what + ": " + errorName(err));
}

Buffer::~Buffer()
{
    if (m_mem) {
        clReleaseMemObject(m_mem);
        if (m_counter)
            *m_counter -= m_bytes;
    }
}

namespace {
cl_device_id findDevice(int index, cl_platform_id& platform)
{
    cl_uint platformCount = 0;
    if (clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS || platformCount == 0)
        return nullptr;
    std::vector<cl_platform_id> platforms(platformCount);
    clGetPlatformIDs(platformCount, platforms.data(), nullptr);
    int k = 0;
    for (cl_platform_id p : platforms) {
        cl_uint count = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS)
            continue;
        std::vector<cl_device_id> devices(count);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
        for (cl_device_id d : devices)
            if (k++ == index) {
                platform = p;
                return d;
            }
    }
    return nullptr;
}

// The build log of a program that did not build on `device`, cut to a readable length.
std::string buildLog(cl_program program, cl_device_id device)
{
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    if (log.size() > 2000)
        log = log.substr(0, 2000) + " ...";
    return log;
}

// The bytes of a file, or nothing when it does not exist or cannot be read (`why` says which).
std::optional<std::string> readFileIfAny(const std::string& path, std::string& why)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        why.clear(); // no entry yet
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = "cannot be read";
        return std::nullopt;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        why = "cannot be read";
        return std::nullopt;
    }
    return bytes;
}
} // namespace

Device::Device(int index, std::string cacheDir) : m_cacheDir(std::move(cacheDir))
{
    m_device = findDevice(index, m_platformId);
    if (!m_device) {
        std::string reason;
        const auto all = tb::listOpenClDevices(reason);
        throw ConfigError(all.empty() ? "no OpenCL device available: " + reason
                                      : "there is no OpenCL device " + std::to_string(index) + " (this machine has " +
                                            std::to_string(all.size()) + ")");
    }
    m_platform = platformString(m_platformId, CL_PLATFORM_NAME);
    m_name = deviceString(m_device, CL_DEVICE_NAME);
    m_version = deviceString(m_device, CL_DEVICE_VERSION);
    if (const std::string why = unusableReason(m_device); !why.empty())
        throw ConfigError("opencl:" + std::to_string(index) + " (" + m_name + ") " + why);
    m_memory = int64_t(deviceValue<cl_ulong>(m_device, CL_DEVICE_GLOBAL_MEM_SIZE));
    m_maxAlloc = int64_t(deviceValue<cl_ulong>(m_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
    if (const int64_t limit = openClSettings().memoryLimit; limit > 0 && limit < m_memory) {
        m_memory = limit;
        m_limited = true;
    }
    cl_int err = CL_SUCCESS;
    m_context = clCreateContext(nullptr, 1, &m_device, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    m_profile = openClSettings().profile;
    m_queue = clCreateCommandQueue(m_context, m_device, m_profile ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    check(err, "clCreateCommandQueue");

    // Extra options (OpenClSettings) let the tests provoke a build failure.
    m_options = "-cl-std=CL1.2";
    if (const std::string& extra = openClSettings().extraBuildOptions; !extra.empty())
        m_options += " " + extra;
    // OpenCL calls are thread-safe (1.1 and later): the program builds while this thread allocates
    // and uploads on the same context. Only the builder touches m_program and m_origin until joined.
    const StopSignalsHeld held; // the builder never takes the stop signals
    m_builder = std::thread([this] {
        try {
            buildProgram();
        } catch (...) {
            m_buildError = std::current_exception();
        }
    });
}

void Device::waitForProgram()
{
    if (m_builder.joinable())
        m_builder.join();
    if (m_buildError)
        std::rethrow_exception(m_buildError);
}

void Device::buildProgram()
{
    if (m_cacheDir.empty()) {
        buildFromSource();
        return;
    }
    // The key: everything that changes the binary. The driver version covers a driver update, the
    // sources and options a change of the kernels.
    Sha256 h;
    const std::string what =
        "trainbench OpenCL program v1\nplatform: " + m_platform + " | " +
        platformString(m_platformId, CL_PLATFORM_VENDOR) + " | " + platformString(m_platformId, CL_PLATFORM_VERSION) +
        "\ndevice: " + m_name + " | " + deviceString(m_device, CL_DEVICE_VENDOR) + " | " +
        deviceString(m_device, CL_DRIVER_VERSION) + " | " + m_version + "\noptions: " + m_options + "\n";
    h.update(what.data(), what.size());
    for (const KernelSource& s : kKernelSources) {
        h.update(s.name, std::char_traits<char>::length(s.name) + 1);
        h.update(s.text, std::char_traits<char>::length(s.text) + 1);
    }
    const std::string key = h.hexDigest();
    const std::string dir = m_cacheDir + "/opencl";
    const std::string path = dir + "/" + key + ".bin";

    std::string problem; // why the cached entry was not used ("" when there was none)
    if (std::optional<std::string> bytes = readFileIfAny(path, problem)) {
        if (std::optional<std::string> binary = decodeKernelCacheEntry(*bytes, key, problem)) {
            if (cl_program p = [&] {
                    const unsigned char* data = reinterpret_cast<const unsigned char*>(binary->data());
                    const size_t size = binary->size();
                    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
                    cl_program prog = clCreateProgramWithBinary(m_context, 1, &m_device, &size, &data, &status, &err);
                    if (err != CL_SUCCESS || status != CL_SUCCESS) {
                        problem = "was refused by the driver (clCreateProgramWithBinary: " +
                                  errorName(err != CL_SUCCESS ? err : status) + ")";
                        if (prog)
                            clReleaseProgram(prog);
                        return cl_program(nullptr);
                    }
                    err = clBuildProgram(prog, 1, &m_device, m_options.c_str(), nullptr, nullptr);
                    if (err != CL_SUCCESS) {
                        problem = "did not build (" + errorName(err) + ")";
                        clReleaseProgram(prog);
                        return cl_program(nullptr);
                    }
                    return prog;
                }()) {
                m_program = p;
                m_origin.fromCache = true;
                m_origin.note = "OpenCL kernels: loaded from the cache (" + path + ")";
                return;
            }
        }
    }
    buildFromSource();

    // Store the binary the driver made; a cache that cannot be written costs the next run a compile,
    // never this run.
    std::string stored;
    try {
        size_t size = 0;
        check(clGetProgramInfo(m_program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
              "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
        if (size == 0)
            throw DeviceError("the driver gives no binary for the program");
        std::string binary(size, '\0');
        unsigned char* data = reinterpret_cast<unsigned char*>(binary.data());
        check(clGetProgramInfo(m_program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr),
              "clGetProgramInfo(CL_PROGRAM_BINARIES)");
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec)
            throw IoError("cannot create " + dir + ": " + ec.message());
        writeFileAtomically(path, encodeKernelCacheEntry(key, binary));
        m_origin.stored = true;
        stored = "; stored in the cache (" + path + ")";
    } catch (const Error& e) {
        stored = "; not stored in the cache: " + std::string(e.what());
    }
    m_origin.note = "OpenCL kernels: compiled from source" +
                    (problem.empty() ? std::string() : " because the cached copy " + problem) + stored;
}

void Device::buildFromSource()
{
    std::vector<const char*> sources;
    std::vector<size_t> lengths;
    for (const KernelSource& s : kKernelSources) {
        sources.push_back(s.text);
        lengths.push_back(std::char_traits<char>::length(s.text));
    }
    cl_int err = CL_SUCCESS;
    m_program = clCreateProgramWithSource(m_context, cl_uint(sources.size()), sources.data(), lengths.data(), &err);
    check(err, "clCreateProgramWithSource");
    err = clBuildProgram(m_program, 1, &m_device, m_options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS)
        throw DeviceError("the OpenCL kernels did not build on " + m_name + " (" + errorName(err) +
                          "): " + buildLog(m_program, m_device));
}

Device::~Device()
{
    if (m_builder.joinable())
        m_builder.join();
    if (m_profile) {
        if (m_queue)
            clFinish(m_queue);
        collect();
        std::vector<std::pair<double, std::string>> rows;
        double total = 0.0;
        for (const auto& [name, t] : m_profileTotals) {
            rows.emplace_back(t.first, name);
            total += t.first;
        }
        std::sort(rows.rbegin(), rows.rend());
        std::fprintf(stderr, "OpenCL profile (%s): %.3f s of device time\n", m_name.c_str(), total);
        for (const auto& [sec, name] : rows)
            std::fprintf(stderr, "  %8.3f s %5.1f%% %8lld x  %s\n", sec, 100.0 * sec / std::max(total, 1e-12),
                         static_cast<long long>(m_profileTotals[name].second), name.c_str());
    }
    for (auto& [name, k] : m_kernels)
        clReleaseKernel(k);
    if (m_program)
        clReleaseProgram(m_program);
    if (m_queue) {
        clFinish(m_queue);
        clReleaseCommandQueue(m_queue);
    }
    if (m_context)
        clReleaseContext(m_context);
}

Buffer Device::allocate(int64_t bytes, const char* what)
{
    bytes = std::max<int64_t>(bytes, 4);
    if (m_allocated + bytes > m_memory)
        throw DeviceError(std::string("out of device memory: ") + what + " needs " + humanBytes(uint64_t(bytes)) +
                          " more, " + humanBytes(uint64_t(m_allocated)) + " of " + humanBytes(uint64_t(m_memory)) +
                          " are in use" + (m_limited ? " (TRAINBENCH_OPENCL_MEMORY_LIMIT)" : ""));
    if (bytes > m_maxAlloc)
        throw DeviceError(std::string("out of device memory: ") + what + " needs one buffer of " +
                          humanBytes(uint64_t(bytes)) + ", the device's largest is " +
                          humanBytes(uint64_t(m_maxAlloc)));
    cl_int err = CL_SUCCESS;
    Buffer b;
    b.m_mem = clCreateBuffer(m_context, CL_MEM_READ_WRITE, size_t(bytes), nullptr, &err);
    check(err, what);
    b.m_bytes = bytes;
    b.m_counter = &m_allocated;
    m_allocated += bytes;
    const cl_uchar zero = 0;
    check(clEnqueueFillBuffer(m_queue, b.m_mem, &zero, 1, 0, size_t(bytes), 0, nullptr, nullptr), what);
    return b;
}

cl_kernel Device::kernel(const char* name)
{
    waitForProgram();
    auto it = m_kernels.find(name);
    if (it != m_kernels.end())
        return it->second;
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(m_program, name, &err);
    check(err, name);
    m_kernels.emplace(name, k);
    return k;
}

void Device::setArg(cl_kernel k, cl_uint i, const Buffer& b)
{
    cl_mem m = b.get();
    check(clSetKernelArg(k, i, sizeof m, &m), "clSetKernelArg");
}

void Device::enqueue(cl_kernel k, const char* name, size_t global, size_t local)
{
    if (global == 0)
        return;
    global = (global + local - 1) / local * local;
    check(clEnqueueNDRangeKernel(m_queue, k, 1, nullptr, &global, &local, 0, nullptr, event(name)), name);
}

void Device::write(Buffer& b, const void* src, int64_t bytes, int64_t offset, bool blocking)
{
    if (bytes > 0)
        check(clEnqueueWriteBuffer(m_queue, b.get(), blocking ? CL_TRUE : CL_FALSE, size_t(offset), size_t(bytes), src,
                                   0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
}

void Device::read(const Buffer& b, void* dst, int64_t bytes, int64_t offset)
{
    if (bytes > 0)
        check(clEnqueueReadBuffer(m_queue, b.get(), CL_TRUE, size_t(offset), size_t(bytes), dst, 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
    if (m_profile)
        collect();
}

void Device::copy(const Buffer& src, Buffer& dst, int64_t bytes)
{
    if (bytes > 0)
        check(clEnqueueCopyBuffer(m_queue, src.get(), dst.get(), 0, 0, size_t(bytes), 0, nullptr, nullptr),
              "clEnqueueCopyBuffer");
}

void Device::finish()
{
    check(clFinish(m_queue), "clFinish");
    collect();
}

cl_event* Device::event(const std::string& name)
{
    if (!m_profile)
        return nullptr;
    m_events.emplace_back(name, nullptr);
    return &m_events.back().second;
}

void Device::collect()
{
    for (auto& [name, e] : m_events) {
        if (!e)
            continue;
        cl_ulong start = 0, end = 0;
        clWaitForEvents(1, &e);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
        auto& t = m_profileTotals[name];
        t.first += double(end - start) * 1e-9;
        ++t.second;
        clReleaseEvent(e);
    }
    m_events.clear();
}

} // namespace tb::ocl
