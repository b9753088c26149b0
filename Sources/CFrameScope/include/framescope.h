#ifndef FRAMESCOPE_H
#define FRAMESCOPE_H
#endif
