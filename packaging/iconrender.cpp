// Renders the scalable icon into the PNG sizes of the hicolor theme at build time:
// paretoscope-iconrender ICON.svg OUTDIR SIZE... writes OUTDIR/SIZExSIZE/paretoscope.png.
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: paretoscope-iconrender ICON.svg OUTDIR SIZE...\n");
        return 2;
    }
    QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
    if (!svg.isValid()) {
        std::fprintf(stderr, "paretoscope-iconrender: cannot read %s\n", argv[1]);
        return 1;
    }
    for (int i = 3; i < argc; ++i) {
        const int size = std::atoi(argv[i]);
        const QString dir = QString::fromLocal8Bit(argv[2]) + QStringLiteral("/%1x%1").arg(size);
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        svg.render(&painter);
        painter.end();
        if (size < 1 || !QDir().mkpath(dir) || !image.save(dir + QStringLiteral("/paretoscope.png"), "PNG")) {
            std::fprintf(stderr, "paretoscope-iconrender: cannot write the %s px icon under %s\n", argv[i], argv[2]);
            return 1;
        }
    }
    return 0;
}
