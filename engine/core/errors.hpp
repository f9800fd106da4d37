// Typed exceptions thrown by the engine. Messages are written for the user: they name the file,
// layer or value at fault and what is wrong with it. The engine never calls exit().
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace tb {

// Stable identifiers of the messages a front end shows and may translate. The arguments fill %1,
// %2, ... in the order listed; what() keeps the engine's English for the CLI. Never renumber: add
// at the end (the window's translations are keyed by these).
enum class MessageId : int {
    None = 0,                       // no id: only the English text exists
    DatasetFolderMissing = 1,       // folder
    DatasetFileMissing = 2,         // file pattern ("train-images-idx3-ubyte[.gz]"), folder
    DatasetCountMismatch = 3,       // labels file, label count, images file, image count
    IdxCannotOpen = 4,              // file, system reason
    IdxTooShort = 5,                // file, bytes present
    IdxNotIdx = 6,                  // file, magic found ("31,139,8,3"), magic expected ("0,0,8,3")
    IdxTruncated = 7,               // file, declared bytes, bytes present
    IdxTooLong = 8,                 // file, declared bytes (a gzip file: how many more is not known)
    TrainingDiverged = 9,           // epoch, step, "gradient" | "updated weights"
    GpuBuiltWithoutCuda = 10,       // (no arguments): no CUDA backend
    IdxTooLongBy = 11,              // file, extra bytes, declared bytes
    TrainingDivergedNoWeights = 12, // epoch, step
    IdxGzipped = 13,                // file (gzip-compressed under a name without .gz)
    Count
};

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    Error(MessageId id, std::vector<std::string> args, const std::string& english)
        : std::runtime_error(english), m_id(id), m_args(std::move(args))
    {
    }
    MessageId id() const { return m_id; }
    const std::vector<std::string>& args() const { return m_args; }

private:
    MessageId m_id = MessageId::None;
    std::vector<std::string> m_args;
};

// A dataset file is missing, unreadable or malformed.
class DataError : public Error {
public:
    using Error::Error;
};

// A model description is malformed or does not fit the data.
class ModelError : public Error {
public:
    using Error::Error;
};

// Reading or writing a file failed (permissions, full disk, corrupt weights file).
class IoError : public Error {
public:
    using Error::Error;
};

// The loss or the gradients became NaN or infinite. A gradient or an update that did is not applied,
// and the weights before it are kept (weightsKept). A loss that did was computed with the weights
// the step before left: those are no good either, and weightsKept is false.
class DivergedError : public Error {
public:
    DivergedError(MessageId id, std::vector<std::string> args, const std::string& english, bool weightsKept)
        : Error(id, std::move(args), english), m_weightsKept(weightsKept)
    {
    }
    bool weightsKept() const { return m_weightsKept; }

private:
    bool m_weightsKept = true;
};

// An argument outside its valid range (batch size 0, unknown optimizer, ...).
class ConfigError : public Error {
public:
    using Error::Error;
};

// An accelerator failed while running (out of device memory, a kernel that does not build, a device
// lost): the run stops; the weights last written back to the host are kept.
class DeviceError : public Error {
public:
    using Error::Error;
};

} // namespace tb
