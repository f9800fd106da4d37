// Typed exceptions thrown by the engine. Messages are written for the user: they name the file,
// layer or value at fault and what is wrong with it. The engine never calls exit().
#pragma once

#include <stdexcept>
#include <string>

namespace tb {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
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

// The loss or the gradients became NaN or infinite; the last good weights were kept.
class DivergedError : public Error {
public:
    using Error::Error;
};

// An argument outside its valid range (batch size 0, unknown optimizer, ...).
class ConfigError : public Error {
public:
    using Error::Error;
};

}  // namespace tb
