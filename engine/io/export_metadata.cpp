#include "io/export_metadata.hpp"

#include "core/json_text.hpp"

namespace tb {

const char* trainbenchVersion()
{
    return TRAINBENCH_VERSION;
}

std::vector<std::pair<std::string, std::string>> exportMetadata(const Network& net,
                                                                const std::vector<std::string>& classNames)
{
    const nlohmann::ordered_json names = classNames;
    const nlohmann::ordered_json input = {net.inputShape().h, net.inputShape().w, net.inputShape().c};
    return {{"trainbench_version", trainbenchVersion()},
            {"model_name", net.spec().name},
            {"class_names", jsonText(names)},
            {"weights_sha256", net.weightsSha256()},
            {"input_shape", jsonText(input)},
            {"input_scale", jsonText(double(net.inputScale()))},
            {"model", net.spec().json}};
}

} // namespace tb
