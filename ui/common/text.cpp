#include "common/text.hpp"

#include <QCoreApplication>
#include <QLocale>

namespace tbui {

QString formatBytes(int64_t bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

QString formatCount(int64_t n)
{
    return QLocale().toString(qlonglong(n));
}

QString formatNumber(double v, int decimals)
{
    return QLocale().toString(v, 'f', decimals);
}

QString percentOf(const QString& number)
{
    // English writes "86.77%"; Spanish, as most languages, "86,77 %" (a no-break space).
    const QLocale::Language language = QLocale().language();
    return language == QLocale::English || language == QLocale::C ? number + QLatin1Char('%')
                                                                  : number + QStringLiteral("\u00a0%");
}

QString formatPercent(double fraction, int decimals)
{
    return percentOf(formatNumber(100.0 * fraction, decimals));
}

QString cellText(QString text)
{
    for (QChar& c : text)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line ||
            c.category() == QChar::Separator_Paragraph)
            c = QLatin1Char('?');
    return text;
}

namespace {
struct ClassNames {
    Q_DECLARE_TR_FUNCTIONS(ClassNames)
public:
    static QString fashionMnist(int c)
    {
        switch (c) {
        case 0:
            return tr("T-shirt/top");
        case 1:
            return tr("Trouser");
        case 2:
            return tr("Pullover");
        case 3:
            return tr("Dress");
        case 4:
            return tr("Coat");
        case 5:
            return tr("Sandal");
        case 6:
            return tr("Shirt");
        case 7:
            return tr("Sneaker");
        case 8:
            return tr("Bag");
        default:
            return tr("Ankle boot");
        }
    }
};

bool isFashionMnist(const std::vector<std::string>& names)
{
    static const std::vector<std::string> known = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                   "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return names == known;
}

// The engine's names for a dataset without class names (data/dataset.cpp): "class 0", "class 1", …
bool isGeneric(const std::vector<std::string>& names)
{
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] != "class " + std::to_string(i))
            return false;
    return true;
}
} // namespace

QString asSentence(const QString& text)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t.endsWith(QLatin1Char('.')) || t.endsWith(QLatin1Char('!')) || t.endsWith(QLatin1Char('?')) ||
        t.endsWith(QChar(0x2026)))
        return t;
    return t + QLatin1Char('.');
}

QString className(const std::vector<std::string>& names, int c)
{
    if (c < 0 || size_t(c) >= names.size())
        return QString::number(c);
    if (isFashionMnist(names))
        return ClassNames::fashionMnist(c);
    if (isGeneric(names)) // "class 3" stayed English in the Spanish window's results and report
        return ClassNames::tr("class %1").arg(c);
    return QString::fromStdString(names[size_t(c)]);
}

} // namespace tbui
