// For the round trips of the training options, the table's own (tst_train_options) and the window's
// line through trainbench-cli (tst_ui_resume): a line of arguments read back by the table, and two
// TrainConfigs compared setting by setting (where the arithmetic runs, the device, is left to the
// caller).
#pragma once

#include "config/early_stopping.hpp"
#include "config/lr_schedule.hpp"
#include "train/train_options.hpp"
#include "train/trainer.hpp"

#include <QtTest>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace fixtures {

// "--name value ..." read as trainbench-cli reads it: each a training option, a value after each
// option that takes one, applied by the table.
inline tb::TrainSettings parseTrainArguments(const std::vector<std::string>& args)
{
    std::map<std::string, std::string> given;
    for (size_t i = 0; i < args.size(); ++i) {
        const tb::TrainOption* o = args[i].rfind("--", 0) == 0 ? tb::findTrainOption(args[i].substr(2)) : nullptr;
        if (!o)
            throw std::runtime_error("not a training option: " + args[i]);
        given[o->name] = o->value.empty() ? "" : args.at(++i);
    }
    tb::TrainSettings s;
    tb::applyTrainOptions(s, given);
    return s;
}

inline void compareTrainConfigs(const tb::TrainConfig& x, const tb::TrainConfig& y)
{
    QCOMPARE(x.epochs, y.epochs);
    QCOMPARE(x.batchSize, y.batchSize);
    QCOMPARE(x.seed, y.seed);
    QCOMPARE(int(x.optimizer.kind), int(y.optimizer.kind));
    QCOMPARE(x.optimizer.learningRate, y.optimizer.learningRate);
    QCOMPARE(x.optimizer.momentum, y.optimizer.momentum);
    QCOMPARE(x.optimizer.nesterov, y.optimizer.nesterov);
    QCOMPARE(x.maxBatches, y.maxBatches);
    QCOMPARE(x.sizeMultiplier, y.sizeMultiplier);
    QCOMPARE(x.dropRemainder, y.dropRemainder);
    QCOMPARE(x.shardSize, y.shardSize);
    QCOMPARE(x.preciseBnBatches, y.preciseBnBatches);
    QCOMPARE(x.validationSplit, y.validationSplit);
    QCOMPARE(x.validationLimit, y.validationLimit);
    QCOMPARE(int(x.schedule.kind), int(y.schedule.kind));
    QCOMPARE(tb::describeLrSchedule(x.schedule), tb::describeLrSchedule(y.schedule));
    QCOMPARE(x.schedule.minLr, y.schedule.minLr);
    QCOMPARE(tb::describeEarlyStopping(x.earlyStopping), tb::describeEarlyStopping(y.earlyStopping));
    QCOMPARE(x.earlyStopping.patience, y.earlyStopping.patience);
    QCOMPARE(x.earlyStopping.minDelta, y.earlyStopping.minDelta);
    QCOMPARE(x.earlyStopping.restoreBestWeights, y.earlyStopping.restoreBestWeights);
}

} // namespace fixtures
