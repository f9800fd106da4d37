#include "io/export_metadata.hpp"

#include "io/json.hpp"

namespace tb {

const char* trainbenchVersion()
{
    return TRAINBENCH_VERSION;
}

std::vector<std::pair<std::string, std::string>> exportMetadata(const Network& net,
                                                                const std::vector<std::string>& classNames)
{
    Json names = Json::array();
    for (const std::string& n : classNames)
        names.push(n);
    Json input = Json::array();
    input.push(net.inputShape().h);
    input.push(net.inputShape().w);
    input.push(net.inputShape().c);
    return {{"trainbench_version", trainbenchVersion()},
            {"model_name", net.spec().name},
            {"class_names", names.dump()},
            {"weights_sha256", net.weightsSha256()},
            {"input_shape", input.dump()},
            {"input_scale", Json(double(net.inputScale())).dump()},
            {"model", net.spec().json.dump()}};
}

} // namespace tb
