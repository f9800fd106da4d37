<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>EngineText</name>
    <message numerus="yes">
        <source>%1 threads on %n core(s): the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n</source>
        <translation><numerusform>%1 threads on %n core: the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n</numerusform><numerusform>%1 threads on %n cores: the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>step decay ×%1 every %n epoch(s)</source>
        <translation><numerusform>step decay ×%1 every epoch</numerusform><numerusform>step decay ×%1 every %n epochs</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>reduce on plateau of %1: ×%2 after %n epoch(s), minimum %3</source>
        <translation><numerusform>reduce on plateau of %1: ×%2 after %n epoch, minimum %3</numerusform><numerusform>reduce on plateau of %1: ×%2 after %n epochs, minimum %3</numerusform></translation>
    </message>
</context>
<context>
    <name>tbui::MainWindow</name>
    <message numerus="yes">
        <source>%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epoch(s) (an image model gets its settings back)</source>
        <translation><numerusform>%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epoch (an image model gets its settings back)</numerusform><numerusform>%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epochs (an image model gets its settings back)</numerusform></translation>
    </message>
</context>
<context>
    <name>tbui::ResultsPanel</name>
    <message numerus="yes">
        <source>%Ln image(s) of class %1 predicted as %2</source>
        <translation><numerusform>%Ln image of class %1 predicted as %2</numerusform><numerusform>%Ln images of class %1 predicted as %2</numerusform></translation>
    </message>
</context>
<context>
    <name>tbui::RunPanel</name>
    <message numerus="yes">
        <source>Training: %n replica(s) in sync, global batch %1.</source>
        <translation><numerusform>Training: %n replica in sync, global batch %1.</numerusform><numerusform>Training: %n replicas in sync, global batch %1.</numerusform></translation>
    </message>
</context>
</TS>